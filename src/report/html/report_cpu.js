// hwcomm report page, CPU memory section (docs/cpu-methods.md): the bandwidth
// kernels with both byte counts, the idle latency and read/write-mix matrices,
// the latency ladders and the loaded-latency curves, drawn from model.cpu
// (src/report/html/report_cpu.cpp, the facts of src/analyze/cpu_facts).
// Called by report.js with its helpers; returns the expected chart counts.
window.hwcommDrawCpu = function (model, helpers) {
  'use strict';
  var el = helpers.el, addChart = helpers.addChart, palette = helpers.palette;
  var fmtBytes = helpers.fmtBytes, fmtRate = helpers.fmtRate, tip = helpers.tip;
  var container = document.getElementById('cpu-charts');
  var expected = {cpu_ladder: 0, cpu_loaded: 0};
  if (!container || !model.cpu) return expected;
  var grey = {lineStyle: {color: '#eee'}};
  function table(head, rows, caption) {
    var t = el('table', {className: 'cpu'});
    if (caption) t.appendChild(el('caption', {textContent: caption}));
    t.appendChild(el('tr', {}, head.map(function (h) { return el('th', {textContent: h}); })));
    rows.forEach(function (r) { t.appendChild(el('tr', {}, r.map(function (c) { return el('td', {textContent: c}); }))); });
    return t;
  }
  function matrix(m, caption, digits) {
    var rows = m.rows.map(function (r) {
      return [r].concat(m.cols.map(function (c) {
        var cell = m.cells.filter(function (x) { return x.src === r && x.dst === c; })[0];
        return cell ? cell.value.toFixed(digits) : '-';
      }));
    });
    return table(['cores \\ memory'].concat(m.cols), rows, caption);
  }
  model.cpu.forEach(function (f) {
    var c = f.facts, prefix = model.cpu.length > 1 ? f.file + ': ' : '';
    var tables = el('div', {className: 'cpu-tables'});
    container.appendChild(tables);
    var d = c.dram;
    tables.appendChild(el('p', {className: 'caption', textContent: prefix + 'theoretical DRAM bandwidth: ' +
      (d && d.theoretical_gbps !== null ? fmtRate(d.theoretical_gbps) + ' GB/s (' + d.note + ')' :
       'none' + (d ? ': ' + d.note : ''))}));
    if (c.bandwidth.length) tables.appendChild(table(
      ['method', 'src \u2192 dst', 'params', 'size', 'median GB/s', 'best of N', 'STREAM count (median / best)', 'workers', 'samples'],
      c.bandwidth.map(function (r) {
        return [r.method, r.src + ' \u2192 ' + r.dst, r.params || '-', fmtBytes(r.bytes), fmtRate(r.median_gbps),
                fmtRate(r.best_gbps), r.stream_kernel ? r.stream_kernel + ': ' + fmtRate(r.stream_median_gbps) + ' / ' +
                fmtRate(r.stream_best_gbps) : '-', r.variant || '-', String(r.samples)];
      }), prefix + 'bandwidth at the largest size: hwcomm counts each byte of the transfer once, STREAM counts every array (Copy \u00d72, Triad \u00d73)'));
    if (c.latency_matrix.cells.length) tables.appendChild(matrix(c.latency_matrix,
      prefix + 'idle latency (ns) at ' + fmtBytes(c.latency_matrix.bytes) + ': rows the chasing core\u2019s node, columns the memory\u2019s', 1));
    Object.keys(c.mix_matrices).forEach(function (mix) {
      tables.appendChild(matrix(c.mix_matrices[mix], prefix + 'bandwidth, mix ' + mix + ' (GB/s of bytes read plus written)', 1));
    });
    c.ladders.forEach(function (l) {
      var lines = [['L1d', l.l1d_bytes], ['L2', l.l2_bytes], ['LLC', l.llc_bytes]].filter(function (x) { return x[1] > 0; });
      // The memory's level starting inside the reported LLC (a VM's L3 may be its host's): marked and said.
      var inside = l.llc_window_reads_memory === true && l.memory_from_bytes > 0;
      if (inside) lines.push(['memory level from', l.memory_from_bytes]);
      var option = {
        tooltip: {trigger: 'axis', formatter: function (list) {
          return list.length ? tip([[fmtBytes(list[0].value[0]) + ': ' + list[0].value[1].toFixed(1) + ' ns']]) : ''; }},
        grid: {left: 64, right: 24, top: 24, bottom: 44},
        xAxis: {type: 'log', logBase: 2, name: 'working set', nameLocation: 'middle', nameGap: 26,
                axisLabel: {formatter: fmtBytes, hideOverlap: true}, splitLine: grey},
        yAxis: {type: 'log', name: 'ns per dependent load', nameLocation: 'middle', nameGap: 44, splitLine: grey},
        series: [{type: 'line', name: l.src + ' \u2192 ' + l.dst, color: palette[0], step: 'middle',
                  data: l.rungs.map(function (r) { return [r.bytes, r.ns]; }),
                  markLine: {symbol: 'none', silent: true, lineStyle: {type: 'dashed', color: '#777'},
                             label: {formatter: function (p) { return p.name; }},
                             data: lines.map(function (x) { return {name: x[0] + ' ' + fmtBytes(x[1]), xAxis: x[1]}; })}}]
      };
      addChart(container, 'cpu_ladder', prefix + 'latency ladder ' + l.src + ' \u2192 ' + l.dst,
               'pointer chase, one core; dashed: cache sizes from hwloc' + (inside ? '; the latency reaches the ' +
               'memory\u2019s level from ' + fmtBytes(l.memory_from_bytes) + ', inside the reported LLC: this core sees ' +
               'a smaller last-level cache than the OS reports' : ''), option);
      expected.cpu_ladder++;
    });
    c.loaded_latency.forEach(function (curve) {
      var option = {
        tooltip: {trigger: 'item', formatter: function (p) {
          return tip([[p.value[2] + ' load workers: ' + p.value[1].toFixed(1) + ' ns at ' + fmtRate(p.value[0]) + ' GB/s']]); }},
        grid: {left: 64, right: 24, top: 24, bottom: 44},
        xAxis: {type: 'value', name: 'bandwidth the load workers drew (GB/s)', nameLocation: 'middle', nameGap: 26, splitLine: grey},
        yAxis: {type: 'value', name: 'latency (ns)', nameLocation: 'middle', nameGap: 44, splitLine: grey},
        series: [{type: 'line', color: palette[1],
                  data: curve.points.map(function (p) { return [p.load_gbps, p.latency_ns, p.load_workers]; })}]
      };
      addChart(container, 'cpu_loaded', prefix + 'loaded latency ' + curve.src + ' \u2192 ' + curve.dst,
               fmtBytes(curve.bytes) + ' working set; one point per number of load workers', option);
      expected.cpu_loaded++;
    });
  });
  return expected;
};
