// hwcomm report page: draws the model in #hwcomm-data with Apache ECharts
// (SVG renderer, so every chart saves as SVG and PNG). Runs once, synchronously,
// and ends by writing what it drew into #hwcomm-test for the browser test
// (report_check.js). No string from the data is ever parsed as markup.
(function () {
  'use strict';
  var started = performance.now();
  var model = JSON.parse(document.getElementById('hwcomm-data').textContent);
  var curves = model.curves;
  var tip = window.hwcommTip;  // tooltips from text nodes (report_tips.js)
  var drawn = [];  // {chart, figure, kind}
  var palette = ['#2f6fc0', '#e8702a', '#3a9d3a', '#c8312d', '#8a5bbf', '#8c564b', '#d45fae', '#6f6f6f',
                 '#a8a51e', '#16a2b8', '#1f3f7a', '#f0a500'];

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) { node[k] = props[k]; });
    (children || []).forEach(function (c) { node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }

  // 1 B, 4 KiB, 1 GiB: powers of two stay whole numbers.
  function fmtBytes(bytes) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var i = 0;
    while (bytes >= 1024 && i < units.length - 1) { bytes /= 1024; i++; }
    return (Math.round(bytes * 10) / 10) + ' ' + units[i];
  }
  function fmtRate(v) { return v === undefined ? '-' : (v < 10 ? v.toFixed(2) : v.toFixed(1)); }

  // ---- saving charts ----
  function download(name, url) {
    var a = el('a', {href: url, download: name});
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  function saveSvg(name, svgText) {
    download(name + '.svg', 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText));
  }
  function savePng(name, svgText, width, height) {
    var img = new Image();
    img.onload = function () {
      var canvas = el('canvas', {width: width * 2, height: height * 2});
      var ctx = canvas.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      download(name + '.png', canvas.toDataURL('image/png'));
    };
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText);
  }
  function saveButtons(name, getSvg, getSize) {
    var svg = el('button', {type: 'button', textContent: 'SVG', title: 'Save this chart as SVG'});
    var png = el('button', {type: 'button', textContent: 'PNG', title: 'Save this chart as PNG'});
    svg.onclick = function () { saveSvg(name, getSvg()); };
    png.onclick = function () { var s = getSize(); savePng(name, getSvg(), s[0], s[1]); };
    return [svg, png];
  }
  function fileName(title) { return 'hwcomm-' + title.replace(/[^A-Za-z0-9_.-]+/g, '_'); }

  // Charts are laid out at once but drawn lazily: those on the first screen
  // right away, the others when they come near the viewport or, in the
  // background, a few at a time, so the page is usable at once however many
  // curves it holds.
  var pending = [], sizeOf = {};
  function drawEntry(entry) {
    if (entry.chart) return entry.chart;
    // Sizes from the layout, read once per kind: measuring each holder would
    // force a layout of the whole page per chart.
    if (!sizeOf[entry.kind]) sizeOf[entry.kind] = [entry.holder.clientWidth, entry.holder.clientHeight];
    var height = parseInt(entry.holder.style.height, 10) || sizeOf[entry.kind][1];
    entry.chart = echarts.init(entry.holder, null, {renderer: 'svg', width: sizeOf[entry.kind][0], height: height});
    entry.option.animation = false;
    entry.chart.setOption(entry.option);
    entry.option = null;
    var i = pending.indexOf(entry);
    if (i >= 0) pending.splice(i, 1);
    return entry.chart;
  }
  var observer = 'IntersectionObserver' in window ? new IntersectionObserver(function (seen) {
    seen.forEach(function (s) { if (s.isIntersecting) { drawEntry(s.target.hwcommEntry); observer.unobserve(s.target); } });
  }, {rootMargin: '400px'}) : null;

  function addChart(container, kind, title, subtitle, option, extraTools, className) {
    var holder = el('div', {className: 'chart' + (className ? ' ' + className : '')});
    var tools = el('span', {className: 'tools'}, extraTools || []);
    var figure = el('figure', {className: 'chart-figure'}, [
      el('figcaption', {}, [el('span', {}, [title, ' ', el('span', {className: 'sub', textContent: subtitle || ''})]), tools]),
      holder]);
    figure.dataset.kind = kind;
    figure.id = kind + '-' + drawn.filter(function (d) { return d.kind === kind; }).length;  // link target
    container.appendChild(figure);
    var entry = {holder: holder, figure: figure, kind: kind, option: option, chart: null};
    figure.hwcommEntry = entry;
    saveButtons(fileName(title), function () { return drawEntry(entry).renderToSVGString(); },
                function () { var c = drawEntry(entry); return [c.getWidth(), c.getHeight()]; })
      .forEach(function (b) { tools.appendChild(b); });
    drawn.push(entry);
    pending.push(entry);
    return entry;
  }
  // "#draw-all" draws every chart before the page finishes loading (tests, timing);
  // "#show-tips" also shows every tooltip once (the browser test of hostile names).
  var showTips = location.hash === '#show-tips';
  var drawAllNow = showTips || location.hash === '#draw-all';
  function drawFirstScreen() {
    // report.html#only=heatmap-3 shows that figure alone (screenshots, slides);
    // report.html#heatmap-3 opens the page on it.
    var only = location.hash.indexOf('#only=') === 0 ? document.getElementById(location.hash.slice(6)) : null;
    if (only) {
      document.body.classList.add('only');
      only.classList.add('only-target');
      for (var n = only.parentElement; n && n !== document.body; n = n.parentElement) n.classList.add('only-path');
    }
    var target = !only && location.hash.length > 1 ? document.getElementById(location.hash.slice(1)) : null;
    if (target) target.scrollIntoView();
    pending.slice().forEach(function (entry) {
      var box = entry.figure.getBoundingClientRect();
      if (drawAllNow || (box.bottom > -200 && box.top < window.innerHeight + 200)) drawEntry(entry);
      else if (observer) observer.observe(entry.figure);
    });
  }
  function drainInBackground(done) {
    var start = performance.now();
    while (pending.length && performance.now() - start < 50) drawEntry(pending[0]);
    if (pending.length) setTimeout(function () { drainInBackground(done); }, 0);
    else done();
  }

  // ---- axes ----
  function sizeAxis(minBytes, maxBytes) {
    return {type: 'log', logBase: 2, name: 'transfer size', nameLocation: 'middle', nameGap: 26,
            min: minBytes, max: maxBytes, axisLabel: {formatter: fmtBytes, hideOverlap: true},
            splitLine: {lineStyle: {color: '#eee'}}};
  }
  function pairs(xs, ys) { return xs.map(function (x, i) { return [x, ys[i]]; }); }
  function extent(ids, pick) {
    var lo = Infinity, hi = 0;
    ids.forEach(function (id) { pick(curves[id]).forEach(function (b) { lo = Math.min(lo, b); hi = Math.max(hi, b); }); });
    return [lo === Infinity ? 1 : lo, hi || 2];
  }

  // ---- bandwidth against size ----
  // 66.2 -> 70, 478 -> 500: a round top for the GB/s axis.
  function niceCeil(x) {
    if (!(x > 0)) return 1;
    var step = Math.pow(10, Math.floor(Math.log10(x))) / 2;
    return Math.ceil(x / step) * step;
  }
  function limitTop(entries) {
    return Math.max.apply(null, [0].concat(entries.map(function (e) { return curves[e.id].facts.limit || 0; })));
  }
  function bandwidthSeries(entry, colour, index, limitsDrawn) {
    var c = curves[entry.id];
    var name = entry.label;
    // The interquartile band: one polygon (lower edge left to right, upper edge
    // back), drawn by a custom series so the log size axis maps it exactly.
    var outline = pairs(c.b, c.lo).concat(pairs(c.b, c.hi).reverse());
    var series = [
      {type: 'custom', name: name, data: pairs(c.b, c.hi), silent: true, z: 1, color: colour, tooltip: {show: false},
       renderItem: function (params, api) {
         if (params.dataIndex !== 0) return null;
         return {type: 'polygon', shape: {points: outline.map(function (p) { return api.coord(p); })},
                 style: {fill: colour, opacity: 0.2}};
       }},
      {type: 'line', id: 'main-' + index, name: name, data: pairs(c.b, c.bw), showSymbol: !!c.shape, color: colour,
       lineStyle: {width: c.shape ? 0 : 2, type: ['solid', 'dashed', 'dotted'][c.file % 3]},  // files: one dash each
       markLine: c.facts.limit === undefined || limitsDrawn[c.facts.limit] ? undefined : (limitsDrawn[c.facts.limit] = {
         symbol: 'none', silent: true, lineStyle: {type: 'dashed', color: '#555'},
         label: {formatter: (c.facts.limit_what || 'limit') + ' ' + fmtRate(c.facts.limit) + ' GB/s', position: 'insideEndTop'},
         data: [{yAxis: c.facts.limit}]})}
    ];
    // A confirmed curve: measured at a few sizes; between them, its class representative's shape (not measured).
    if (c.shape) series.push({type: 'line', name: name + ' between its sizes: shape of ' + c.shape.of, symbol: 'none',
                              data: pairs(c.shape.b, c.shape.bw), color: colour, lineStyle: {width: 1, type: 'dashed'}});
    Object.keys(c.parts || {}).forEach(function (part) {
      series.push({type: 'line', name: name + ' ' + part, data: pairs(c.b, c.parts[part]), symbol: 'none',
                   color: colour, lineStyle: {width: 1, type: 'dotted'}});
    });
    if (c.raw) {
      var points = [];
      c.raw.forEach(function (row, i) { row.forEach(function (v) { points.push([c.b[i], v]); }); });
      series.push({type: 'scatter', name: name, data: points, symbolSize: 2, color: colour, silent: true,
                   itemStyle: {opacity: 0.5}});
    }
    return series;
  }
  function suspectSeries(entries) {
    var data = [];
    entries.forEach(function (entry) {
      var c = curves[entry.id];
      c.sus.forEach(function (s) {
        var i = c.b.indexOf(s[0]);
        data.push({value: [s[0], i >= 0 ? c.bw[i] : 0], reason: entry.label + ': ' + s[1]});
      });
    });
    return {type: 'scatter', name: 'suspect', data: data, symbol: 'triangle', symbolSize: 11, color: '#d00000',
            tooltip: {formatter: function (p) { return tip([[p.data.reason]]); }}};
  }
  function factsList(entries) {
    return el('ul', {className: 'facts'}, entries.map(function (entry) {
      var f = curves[entry.id].facts;
      var text = entry.label + ': large ' + fmtRate(f.large) + ' GB/s' + (f.large_cache ? ' (fits the cache)' : '');
      if (f.fraction !== undefined) {
        text += ' (' + Math.round(100 * f.fraction) + '% of ' + fmtRate(f.limit) + (f.limit_what ? ' ' + f.limit_what : '') + ')';
      }
      if (f.best !== undefined) text += ', best ' + fmtRate(f.best) + ' at ' + fmtBytes(f.best_bytes) + (f.cache ? ' (cache)' : '');
      if (f.note) text += '; ' + f.note;
      return el('li', {textContent: text});
    }));
  }
  // One tooltip per size: the median of every curve (bands and parts left out).
  function tooltip() {
    return {trigger: 'axis', formatter: function (list) {
      var main = list.filter(function (p) { return String(p.seriesId).indexOf('main-') === 0; });
      if (!main.length) return '';
      return tip([[fmtBytes(main[0].value[0])]].concat(main.map(function (p) {
        return [{marker: p.color}, p.seriesName + ': ' + fmtRate(p.value[1]) + ' GB/s']; })));
    }};
  }
  function drawGroups() {
    var container = document.getElementById('groups');
    model.groups.forEach(function (group) {
      var ids = group.curves.map(function (e) { return e.id; });
      var range = extent(ids, function (c) { return c.b; });
      var series = [], limitsDrawn = {};
      group.curves.forEach(function (entry, i) {
        series = series.concat(bandwidthSeries(entry, palette[i % palette.length], i, limitsDrawn));
      });
      var suspects = suspectSeries(group.curves);
      if (suspects.data.length) series.push(suspects);
      var option = {
        color: palette, tooltip: tooltip(),
        legend: {type: 'scroll', top: 0, data: group.curves.map(function (e) { return e.label; })},
        grid: {left: 64, right: 24, top: 34, bottom: 44},
        xAxis: sizeAxis(range[0], range[1]),
        yAxis: {type: 'value', name: 'GB/s', nameLocation: 'middle', nameGap: 40, min: 0,
                max: function (v) { return niceCeil(Math.max(v.max, limitTop(group.curves) * 1.05)); },
                axisLabel: {formatter: function (v) { return Math.round(v * 100) / 100; }},
                splitLine: {lineStyle: {color: '#eee'}}},
        series: series
      };
      var made = addChart(container, 'bandwidth', group.title, group.caption, option);
      made.figure.appendChild(factsList(group.curves));
    });
  }

  // ---- small-transfer time ----
  var kSmallLimit = 1 << 20;
  function drawSmall() {
    var container = document.getElementById('small-charts');
    model.small.forEach(function (group) {
      var series = group.curves.map(function (entry, i) {
        var c = curves[entry.id];
        var data = pairs(c.b, c.t).filter(function (p) { return p[0] <= kSmallLimit && p[1] > 0; });
        return {type: 'line', name: entry.label, data: data, showSymbol: false, color: palette[i % palette.length]};
      });
      var ids = group.curves.map(function (e) { return e.id; });
      var range = extent(ids, function (c) { return c.b.filter(function (b) { return b <= kSmallLimit; }); });
      var option = {
        tooltip: {trigger: 'axis', formatter: function (list) {
          return list.length ? tip([[fmtBytes(list[0].value[0])]].concat(list.map(function (p) {
            return [{marker: p.color}, p.seriesName + ': ' + p.value[1].toPrecision(3) + ' \u00b5s']; }))) : ''; }},
        legend: {type: 'scroll', top: 0},
        grid: {left: 68, right: 24, top: 34, bottom: 44},
        xAxis: sizeAxis(range[0], range[1]),
        yAxis: {type: 'log', name: '\u00b5s per transfer', nameLocation: 'middle', nameGap: 44,
                splitLine: {lineStyle: {color: '#eee'}}},
        series: series
      };
      addChart(container, 'small', group.title, 'time per transfer', option, [], 'small');
    });
  }

  // ---- src x dst heatmaps ----
  function heatValue(c, size) {
    if (size === 'large') return c.facts.large;
    var i = c.b.indexOf(Number(size));
    return i >= 0 ? c.bw[i] : undefined;
  }
  function heatOption(map, size) {
    var data = [], top = 0;
    map.cells.forEach(function (cell) {
      var v = heatValue(curves[cell[2]], size);
      if (v === undefined) return;
      top = Math.max(top, v);
      data.push([cell[1], cell[0], Number(fmtRate(v))]);
    });
    return {
      tooltip: {formatter: function (p) {
        return tip([[map.rows[p.value[1]] + ' \u2192 ' + map.cols[p.value[0]] + ': ' + p.value[2] + ' GB/s']]); }},
      grid: {left: 80, right: 90, top: 40, bottom: 30},
      xAxis: {type: 'category', data: map.cols, name: 'dst', position: 'top', splitArea: {show: true}},
      yAxis: {type: 'category', data: map.rows, name: 'src', inverse: true, splitArea: {show: true}},
      visualMap: {min: 0, max: top || 1, calculable: true, orient: 'vertical', right: 0, top: 'middle',
                  text: ['GB/s', ''], inRange: {color: ['#f7fbff', '#6baed6', '#08306b']}},
      series: [{type: 'heatmap', data: data,
                label: {show: true, fontSize: 11, color: '#000', textBorderColor: '#fff', textBorderWidth: 2}}]
    };
  }
  function drawHeatmaps() {
    var container = document.getElementById('heatmaps');
    model.heatmaps.forEach(function (map) {
      var select = el('select', {title: 'Transfer size'});
      select.appendChild(el('option', {value: 'large', textContent: 'large transfer'}));
      map.sizes.forEach(function (s) { select.appendChild(el('option', {value: String(s), textContent: fmtBytes(s)})); });
      var made = addChart(container, 'heatmap', map.title, 'GB/s', heatOption(map, 'large'), [select]);
      made.holder.style.height = Math.max(220, 90 + 42 * map.rows.length) + 'px';
      select.onchange = function () { drawEntry(made).setOption(heatOption(map, select.value), {notMerge: true}); };
    });
  }

  // ---- run facts and topology ----
  function drawRun() {
    var container = document.getElementById('run-tables');
    model.files.forEach(function (file) {
      var table = el('table', {className: 'run'});
      file.run.forEach(function (row) {
        table.appendChild(el('tr', {}, [el('th', {textContent: row[0]}), el('td', {textContent: row[1]})]));
      });
      container.appendChild(el('h3', {textContent: file.name}));
      container.appendChild(table);
      if (file.errors.length) {
        container.appendChild(el('p', {className: 'errors', textContent: file.errors.length + ' record(s) failed: ' +
          file.errors.map(function (e) { return e[0] + ' (' + e[1] + ')'; }).join('; ')}));
      }
    });
  }
  function topologyTools() {
    document.querySelectorAll('.topology-figure').forEach(function (figure) {
      var svg = figure.querySelector('svg');
      var caption = figure.querySelector('figcaption');
      var tools = el('span', {className: 'tools'});
      saveButtons(fileName('topology-' + figure.dataset.file), function () { return svg.outerHTML; },
                  function () { return [svg.width.baseVal.value, svg.height.baseVal.value]; })
        .forEach(function (b) { tools.appendChild(b); });
      caption.appendChild(tools);
    });
  }
  function drawToc() {
    var toc = document.getElementById('toc');
    document.querySelectorAll('section').forEach(function (s) {
      toc.appendChild(el('a', {href: '#' + s.id, textContent: s.querySelector('h2').textContent}));
    });
  }

  var firstScreenMs = 0, gpumemExpected = {}, cpuExpected = {};
  try {
    drawToc();
    drawRun();
    topologyTools();
    drawGroups();
    drawSmall();
    drawHeatmaps();
    gpumemExpected = window.hwcommDrawGpumem(model, {el: el, addChart: addChart, drawEntry: drawEntry, palette: palette,
                                                     fmtBytes: fmtBytes, fmtRate: fmtRate, tip: tip});
    cpuExpected = window.hwcommDrawCpu(model, {el: el, addChart: addChart, palette: palette, fmtBytes: fmtBytes,
                                               fmtRate: fmtRate, tip: tip});
    window.hwcommDrawAnalysis(model, {el: el, fmtRate: fmtRate});
    window.hwcommDrawClasses(model, {el: el});
    drawFirstScreen();
    firstScreenMs = Math.round(performance.now() - started);
    document.body.dataset.firstScreenMs = firstScreenMs;
  } catch (e) {
    window.hwcommErrors.push(String(e && e.stack || e));
  }
  function selfCheck() {
    window.hwcommSelfCheck({drawn: drawn, model: model, gpumemExpected: gpumemExpected, cpuExpected: cpuExpected,
                            firstScreenMs: firstScreenMs, started: started, showTips: showTips});
  }
  if (drawAllNow) selfCheck();
  else setTimeout(function () { drainInBackground(selfCheck); }, 0);
  window.addEventListener('resize', function () {
    drawn.forEach(function (d) { if (d.chart) d.chart.resize({width: 'auto', height: 'auto'}); });
  });
})();
