// hwcomm report page, what the browser test reads (scripts/ci-browser.sh,
// tests/report_html/check_report.py): what was drawn, errors, refused
// requests, and with #show-tips every chart's tooltip shown once per data
// item, counting the tooltips drawn and any element the data could have
// injected. Called by report.js once every chart is drawn.
window.hwcommSelfCheck = function (page) {
  'use strict';
  var drawn = page.drawn, model = page.model, gpumemExpected = page.gpumemExpected || {};
  var cpuExpected = page.cpuExpected || {};
  function count(kind) {
    return drawn.filter(function (d) {
      var svg = d.figure.querySelector('.chart svg');
      return d.kind === kind && svg && svg.querySelectorAll('path').length > 0;
    }).length;
  }
  // Warp lines of the first timeline chart: one SVG path each (a custom "line" of width 1.2, which no axis uses).
  function timelineLines() {
    var first = drawn.filter(function (d) { return d.kind === 'timeline'; })[0];
    var svg = first && first.figure.querySelector('.chart svg');
    return svg ? svg.querySelectorAll('path[stroke-width="1.2"]').length : 0;
  }
  // Each series' items through ECharts' own showTip, as a pointer would: per
  // kind of chart, how many tooltips came out and their text.
  function showAllTips() {
    var tips = {shown: {}, texts: []};
    drawn.forEach(function (d) {
      if (!d.chart) return;
      d.chart.getOption().series.forEach(function (s, si) {
        var n = Math.min((s.data || []).length, 64);
        for (var i = 0; i < n; i++) {
          d.chart.dispatchAction({type: 'showTip', seriesIndex: si, dataIndex: i});
          var tip = d.holder.querySelector('.tip');
          if (!tip || !tip.textContent) continue;
          tips.shown[d.kind] = (tips.shown[d.kind] || 0) + 1;
          if (tips.texts.indexOf(tip.textContent) < 0 && tips.texts.length < 200) tips.texts.push(tip.textContent);
        }
        d.chart.dispatchAction({type: 'hideTip'});
      });
    });
    return tips;
  }
  var tips = page.showTips ? showAllTips() : undefined;
  var result = {
    errors: window.hwcommErrors, blocked: window.hwcommBlocked,
    resources: performance.getEntriesByType('resource').map(function (r) { return r.name; }),
    analysis_cells: document.querySelectorAll('table.analysis tr').length,
    expected: {bandwidth: model.groups.length, small: model.small.length, heatmap: model.heatmaps.length,
               timeline: gpumemExpected.timeline || 0, occupancy: gpumemExpected.occupancy || 0,
               stride: gpumemExpected.stride || 0, latency: gpumemExpected.latency || 0,
               timeline_lines: gpumemExpected.timeline_lines || 0,
               cpu_ladder: cpuExpected.cpu_ladder || 0, cpu_loaded: cpuExpected.cpu_loaded || 0,
               vertices: model.files.map(function (f) { return f.vertices; })},
    drawn: {bandwidth: count('bandwidth'), small: count('small'), heatmap: count('heatmap'),
            timeline: count('timeline'), occupancy: count('occupancy'), stride: count('stride'),
            latency: count('latency'), timeline_lines: timelineLines(),
            cpu_ladder: count('cpu_ladder'), cpu_loaded: count('cpu_loaded'),
            nodes: Array.prototype.map.call(document.querySelectorAll('.topology-figure svg'),
                                            function (s) { return s.querySelectorAll('g.node').length; })},
    tips: tips,
    // Elements a hostile name would have made had any of it been parsed as markup (the browser test's payloads).
    injected: document.querySelectorAll('.hwcomm-injected').length, injected_script_ran: !!window.hwcommInjected,
    first_screen_ms: page.firstScreenMs, all_drawn_ms: Math.round(performance.now() - page.started),
    page_ms: Math.round(performance.now())
  };
  var out = document.createElement('pre');
  out.id = 'hwcomm-test';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
};
