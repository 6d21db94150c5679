// hwcomm report page, GPU memory section (docs/gpumem.md): per-warp timelines,
// occupancy against bandwidth with Little's-law bounds, strided reads and the
// latency ladder, drawn from model.gpumem (src/report/html/report_gpumem.cpp).
// Called by report.js with its helpers; returns the expected chart counts.
window.hwcommDrawGpumem = function (model, helpers) {
  'use strict';
  var el = helpers.el, addChart = helpers.addChart, drawEntry = helpers.drawEntry;
  var palette = helpers.palette, fmtBytes = helpers.fmtBytes, fmtRate = helpers.fmtRate, tip = helpers.tip;
  var g = model.gpumem || {timelines: [], occupancy: [], stride: [], latency: []};
  var container = document.getElementById('gpumem-charts');
  var expected = {timeline: 0, occupancy: 0, stride: 0, latency: 0, timeline_lines: 0};
  if (!container) return expected;
  var grey = {lineStyle: {color: '#eee'}};
  function pairs(xs, ys) { return xs.map(function (x, i) { return [x, ys[i]]; }); }
  function log2Axis(name, min, max, formatter) {
    return {type: 'log', logBase: 2, name: name, nameLocation: 'middle', nameGap: 26, min: min, max: max,
            axisLabel: {formatter: formatter, hideOverlap: true}, splitLine: grey};
  }
  function select(options, title) {
    var s = el('select', {title: title});
    options.forEach(function (o) { s.appendChild(el('option', {value: o[0], textContent: o[1]})); });
    return s;
  }

  // ---- per-warp timeline: one line per warp, start to stop on its SM's clock ----
  function timelineOption(c, unit) {
    var scale = unit === 'ns' && c.sm_clock_mhz ? 1000 / c.sm_clock_mhz : 1;
    var data = [];
    for (var i = 0; i < c.drawn; i++) data.push([c.start[i] * scale, c.stop[i] * scale, i, c.sm[i], c.first[i], c.block[i]]);
    return {
      tooltip: {formatter: function (p) {
        var v = p.value;
        return tip([['warp ' + v[2] + ' (block ' + v[5] + ', SM ' + v[3] + ')'],
                    [Math.round(v[0]) + ' \u2192 ' + Math.round(v[1]) + ' ' + unit + ': ' + Math.round(v[1] - v[0]) + ' ' + unit]]); }},
      grid: {left: 64, right: 24, top: 16, bottom: 44},
      dataZoom: [{type: 'inside', xAxisIndex: 0, filterMode: 'none'}, {type: 'inside', yAxisIndex: 0, filterMode: 'none'}],
      xAxis: {type: 'value', name: 'time on its SM (' + unit + ', 0 = the SM\u2019s earliest warp)',
              nameLocation: 'middle', nameGap: 26, min: 0, splitLine: grey},
      yAxis: {type: 'value', name: 'warp, by start', nameLocation: 'middle', nameGap: 44, min: 0, max: c.drawn,
              inverse: true, splitLine: {show: false}, axisLabel: {showMaxLabel: false}},
      series: [{type: 'custom', data: data, encode: {x: [0, 1], y: 2}, renderItem: function (params, api) {
        var a = api.coord([api.value(0), api.value(2)]), b = api.coord([api.value(1), api.value(2)]);
        // As the study's figures: colour by SM, each block's first warp in black.
        var colour = api.value(4) ? '#000' : palette[api.value(3) % palette.length];
        return {type: 'line', shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: {stroke: colour, lineWidth: 1.2}};
      }}]
    };
  }
  function timelineNote(c) {
    var sms = {};
    c.sm.forEach(function (s) { sms[s] = true; });
    var text = c.drawn + (c.drawn < c.kept ? ' of ' + c.kept + ' kept warps drawn (capped)' : ' warps') +
      ', SM ' + Object.keys(sms).join(', ') + '; black: warp 0 of each block; wheel zooms';
    if (c.warp_latency_cycles_median !== undefined) text += '; median latency of all ' + (c.warps || '') +
      ' warps ' + Math.round(c.warp_latency_cycles_median) + ' cycles';
    if (c.warp_latency_ns_median !== undefined) text += ' (' + Math.round(c.warp_latency_ns_median) + ' ns)';
    if (c.block_gap_cycles_median !== undefined) text += ', block gap ' + Math.round(c.block_gap_cycles_median) + ' cycles';
    return text;
  }
  g.timelines.forEach(function (t) {
    var choice = select(t.charts.map(function (c, i) {
      return [String(i), (c.element_bytes === 16 ? 'float4' : c.element_bytes + ' B') + ', ' + c.warps_per_block + ' warps/block'];
    }), 'Element size and warps per block');
    var unit = select([['cycles', 'cycles'], ['ns', 'ns']], 'Time unit');
    var note = el('p', {className: 'caption', textContent: timelineNote(t.charts[0])});
    var made = addChart(container, 'timeline', t.title, 'one line per warp', timelineOption(t.charts[0], 'cycles'),
                        [choice, unit], 'timeline');
    made.figure.appendChild(note);
    function redraw() {
      var c = t.charts[Number(choice.value)];
      note.textContent = timelineNote(c);
      drawEntry(made).setOption(timelineOption(c, unit.value), {notMerge: true});
    }
    choice.onchange = redraw;
    unit.onchange = redraw;
    expected.timeline++;
    if (expected.timeline === 1) expected.timeline_lines = t.charts[0].drawn;
  });

  // ---- occupancy against bandwidth, Little's-law bounds dashed ----
  function occupancyOption(o, element) {
    var series = [], names = [];
    o.series.forEach(function (s, i) {
      if (element !== 'all' && String(s.element_bytes) !== element) return;
      var colour = palette[i % palette.length];
      names.push(s.label);
      series.push({type: 'line', name: s.label, color: colour, symbolSize: 7,
        data: s.warps.map(function (w, k) {
          // Filled circle: latency-bound (too few bytes in flight); square: the DRAM bandwidth is the limit.
          return {value: [w, s.gbps[k]], symbol: s.latency_bound[k] ? 'circle' : 'rect', bound: s.bound[k],
                  latency: s.latency_bound[k]};
        })});
      series.push({type: 'line', name: s.label, color: colour, showSymbol: false, silent: true, tooltip: {show: false},
                   lineStyle: {type: 'dashed', width: 1}, data: pairs(s.warps, s.bound)});
    });
    if (o.theoretical && series.length) {
      series[0].markLine = {symbol: 'none', silent: true, lineStyle: {color: '#555', type: 'solid'},
        label: {formatter: 'theoretical DRAM ' + fmtRate(o.theoretical) + ' GB/s', position: 'insideEndTop'},
        data: [{yAxis: o.theoretical}]};
    }
    var warps = [].concat.apply([], o.series.map(function (s) { return s.warps; }));
    return {
      tooltip: {trigger: 'item', formatter: function (p) {
        var d = p.data;
        return tip([[p.seriesName + ', ' + d.value[0] + ' warps/SM: ' + fmtRate(d.value[1]) + ' GB/s'],
                    ['Little\u2019s-law bound ' + fmtRate(d.bound) + ' GB/s (' +
                     (d.latency ? 'latency-bound' : 'bandwidth-bound') + ')']]); }},
      legend: {type: 'scroll', top: 0, data: names},
      grid: {left: 64, right: 24, top: 34, bottom: 44},
      xAxis: log2Axis('resident warps per SM', Math.min.apply(null, warps), Math.max.apply(null, warps)),
      yAxis: {type: 'value', name: 'read GB/s', nameLocation: 'middle', nameGap: 44, min: 0,
              max: function (v) { return Math.max(v.max, (o.theoretical || 0) * 1.05); },
              axisLabel: {formatter: function (v) { return Math.round(v); }}, splitLine: grey},
      series: series
    };
  }
  g.occupancy.forEach(function (o) {
    var elements = [['all', 'every element size']];
    o.series.forEach(function (s) {
      if (!elements.some(function (e) { return e[0] === String(s.element_bytes); }))
        elements.push([String(s.element_bytes), s.element_bytes + ' B elements']);
    });
    var choice = select(elements, 'Element size');
    var sub = 'solid: measured; dashed: Little\u2019s-law bound (latency ' + fmtRate(o.latency_ns) +
              ' ns); \u25cf latency-bound, \u25a0 bandwidth-bound';
    var made = addChart(container, 'occupancy', o.title, sub, occupancyOption(o, 'all'), [choice]);
    var peak = o.peak_at;
    made.figure.appendChild(el('p', {className: 'caption', textContent: 'Peak ' + fmtRate(o.peak) + ' GB/s' +
      (o.theoretical ? ' (' + Math.round(100 * o.peak / o.theoretical) + '% of ' + fmtRate(o.theoretical) + ')' : '') +
      ' at ' + peak.warps_per_sm + ' warps/SM, ILP ' + peak.ilp + ', ' + peak.element_bytes + ' B elements.'}));
    choice.onchange = function () { drawEntry(made).setOption(occupancyOption(o, choice.value), {notMerge: true}); };
    expected.occupancy++;
  });

  // ---- strided reads: effective GB/s and sectors per request ----
  g.stride.forEach(function (st) {
    var series = [];
    var strides = [].concat.apply([], st.series.map(function (s) { return s.stride; }));
    st.series.forEach(function (s, i) {
      var colour = palette[i % palette.length];
      series.push({type: 'line', name: s.label + ' GB/s', color: colour, data: pairs(s.stride, s.gbps)});
      series.push({type: 'line', name: s.label + ' GB/s if sectors flowed as at stride 1', color: colour, showSymbol: false,
                   lineStyle: {type: 'dashed', width: 1}, data: pairs(s.stride, s.expected_gbps)});
      series.push({type: 'line', name: s.label + ' sectors/request (theory)', color: colour, yAxisIndex: 1, step: 'middle',
                   showSymbol: false, lineStyle: {type: 'dotted'}, data: pairs(s.stride, s.sectors_theory)});
      if (s.sectors_ncu) series.push({type: 'scatter', name: s.label + ' sectors/request (ncu)', color: colour,
                                      yAxisIndex: 1, symbol: 'diamond', symbolSize: 9, data: pairs(s.stride, s.sectors_ncu)});
    });
    var option = {
      tooltip: {trigger: 'axis', formatter: function (list) {
        return list.length ? tip([['stride ' + list[0].value[0]]].concat(list.map(function (p) {
          return [{marker: p.color}, p.seriesName + ': ' + fmtRate(p.value[1])]; }))) : ''; }},
      legend: {type: 'scroll', top: 0},
      grid: {left: 64, right: 64, top: 34, bottom: 44},
      xAxis: log2Axis('stride (elements)', Math.min.apply(null, strides), Math.max.apply(null, strides)),
      yAxis: [{type: 'value', name: 'effective GB/s', nameLocation: 'middle', nameGap: 44, min: 0, splitLine: grey,
               axisLabel: {formatter: function (v) { return Math.round(v); }}},
              {type: 'value', name: '32-byte sectors per warp request', nameLocation: 'middle', nameGap: 36, min: 0,
               splitLine: {show: false}}],
      series: series
    };
    addChart(container, 'stride', st.title, st.ncu ? 'Nsight Compute sectors as diamonds' :
             'sectors: theory (ncu not measured)', option);
    expected.stride++;
  });

  // ---- latency ladder: ns per dependent load by working set and memory ----
  // A chase from several SMs: a whisker from its nearest to its farthest SM at each size, under the
  // same name as its line (the legend toggles both).
  function smWhiskers(s, color) {
    var data = [];
    (s.nearest_sm || []).forEach(function (lo, k) {
      if (lo !== null && s.farthest_sm[k] !== null) data.push([s.bytes[k], lo, s.farthest_sm[k]]);
    });
    if (!data.length) return null;
    return {type: 'custom', name: s.label, color: color, silent: true, z: 1, data: data, encode: {x: 0, y: [1, 2]},
      renderItem: function (params, api) {
        var lo = api.coord([api.value(0), api.value(1)]), hi = api.coord([api.value(0), api.value(2)]);
        var bar = function (x1, y1, x2, y2) {
          return {type: 'line', shape: {x1: x1, y1: y1, x2: x2, y2: y2}, style: {stroke: color, lineWidth: 1, opacity: 0.7}};
        };
        return {type: 'group', children: [bar(lo[0], lo[1], hi[0], hi[1]), bar(lo[0] - 3, lo[1], lo[0] + 3, lo[1]),
                                          bar(hi[0] - 3, hi[1], hi[0] + 3, hi[1])]};
      }};
  }
  g.latency.forEach(function (l) {
    var bytes = [].concat.apply([], l.series.map(function (s) { return s.bytes; }));
    var series = l.series.map(function (s, i) {
      return {type: 'line', name: s.label, color: palette[i % palette.length], step: 'middle', data: pairs(s.bytes, s.ns)};
    });
    var spread = false;
    l.series.forEach(function (s, i) {
      var w = smWhiskers(s, palette[i % palette.length]);
      if (w) { series.push(w); spread = true; }
    });
    if (l.plateaus.length && series.length) {
      series[0].markLine = {symbol: 'none', silent: true, lineStyle: {type: 'dashed', color: '#777'},
        label: {position: 'insideStartTop', formatter: function (p) { return p.name + ' ' + Math.round(p.value) + ' ns'; }},
        data: l.plateaus.map(function (p) { return {name: p.name, yAxis: p.ns}; })};
    }
    var option = {
      tooltip: {trigger: 'axis', formatter: function (list) {
        list = list.filter(function (p) { return p.seriesType === 'line'; });
        return list.length ? tip([[fmtBytes(list[0].value[0])]].concat(list.map(function (p) {
          var s = l.series[p.seriesIndex], k = p.dataIndex;
          var sms = s && s.nearest_sm && s.nearest_sm[k] !== null ?
            ' (SMs: nearest ' + Math.round(s.nearest_sm[k]) + ', farthest ' + Math.round(s.farthest_sm[k]) + ')' : '';
          return [{marker: p.color}, p.seriesName + ': ' + Math.round(p.value[1]) + ' ns' + sms]; }))) : ''; }},
      legend: {type: 'scroll', top: 0},
      grid: {left: 64, right: 24, top: 34, bottom: 44},
      xAxis: log2Axis('working set', Math.min.apply(null, bytes), Math.max.apply(null, bytes), fmtBytes),
      yAxis: {type: 'log', name: 'ns per dependent load', nameLocation: 'middle', nameGap: 44, splitLine: grey},
      series: series
    };
    addChart(container, 'latency', l.title, 'pointer chase, one thread; dashed: local L1, L2, DRAM plateaus' +
             (spread ? '; host and peer from 1 MiB: the mean over the SMs that chased, whiskers from the nearest ' +
                       'to the farthest SM' : ''), option);
    expected.latency++;
  });
  return expected;
};
