// hwcomm report page, analysis section: the study's tables from src/analyze
// (as `hwcomm analyze` prints them), each cell linking to the charts of the
// curves that decided it. Called by report.js with its helpers.
window.hwcommDrawAnalysis = function (model, helpers) {
  'use strict';
  var el = helpers.el, fmtRate = helpers.fmtRate;
  var groupOf = {};
  model.groups.forEach(function (g, i) { g.curves.forEach(function (c) { groupOf[c.id] = i; }); });
  function chartLinks(ids) {
    var seen = {};
    return el('span', {}, (ids || []).filter(function (id) {
      var g = groupOf[id];
      return g !== undefined && !seen[g] && (seen[g] = true);
    }).map(function (id) {
      return el('a', {className: 'chart-link', href: '#bandwidth-' + groupOf[id], textContent: model.groups[groupOf[id]].title});
    }));
  }
  function cellText(v) { return v === undefined || v === null || v === '' ? '' : String(v); }
  (function draw() {
    var container = document.getElementById('analysis-tables');
    var a = model.analysis;
    if (!a) return;
    if (a.error) {
      container.appendChild(el('p', {className: 'errors', textContent: 'No analysis: ' + a.error}));
      return;
    }
    container.appendChild(el('p', {className: 'caption', textContent: 'Rule: ' + a.rule + '.'}));
    var tables = {}, order = [];
    a.cells.forEach(function (c) {
      var name = c.table.replace(/_/g, ' ') + ' (' + c.link + ')';
      if (!tables[name]) { tables[name] = []; order.push(name); }
      tables[name].push(c);
    });
    order.forEach(function (name) {
      var cells = tables[name];
      var cols = ['host_alloc', 'direction', 'locality', 'peer'].filter(function (f) {
        return cells.some(function (c) { return cellText(c[f]) !== ''; });
      });
      var head = cols.concat(['verdict', 'effect', 'curves', 'why']);
      var table = el('table', {className: 'analysis'}, [el('tr', {}, head.map(function (h) { return el('th', {textContent: h}); }))]);
      cells.forEach(function (c) {
        var effect = c.effect === null || c.effect === undefined ? '' : (c.effect > 0 ? '+' : '') + (100 * c.effect).toFixed(1) + ' %';
        var row = cols.map(function (f) { return el('td', {textContent: cellText(c[f])}); });
        row.push(el('td', {className: 'verdict verdict-' + cellText(c.verdict), textContent: cellText(c.verdict)}));
        row.push(el('td', {textContent: effect}));
        row.push(el('td', {}, [chartLinks(c.curves)]));
        row.push(el('td', {className: 'why', textContent: cellText(c.reason)}));
        table.appendChild(el('tr', {}, row));
      });
      container.appendChild(el('h3', {textContent: name}));
      container.appendChild(table);
    });
    if (a.efficiency.length) {
      var eff = el('table', {className: 'analysis'}, [el('tr', {}, ['curve', 'large GB/s', 'limit GB/s', 'fraction', 'bottleneck']
        .map(function (h) { return el('th', {textContent: h}); }))]);
      a.efficiency.forEach(function (e) {
        eff.appendChild(el('tr', {}, [el('td', {}, [chartLinks(e.curves), ' ', e.key]), el('td', {textContent: fmtRate(e.large_gbps)}),
          el('td', {textContent: fmtRate(e.limit_gbps)}), el('td', {textContent: Math.round(100 * e.fraction) + ' %'}),
          el('td', {textContent: e.link})]));
      });
      container.appendChild(el('h3', {textContent: 'Efficiency against the bottleneck'}));
      container.appendChild(eff);
    }
    container.appendChild(el('h3', {textContent: 'Anomalies'}));
    container.appendChild(a.anomalies.length ? el('ul', {}, a.anomalies.map(function (x) {
      return el('li', {}, [el('b', {textContent: x.kind + ': '}), x.text, ' ', chartLinks(x.curves)]);
    })) : el('p', {textContent: 'None found by the rule.'}));
    if (a.notes.length) {
      container.appendChild(el('h3', {textContent: 'Not concluded'}));
      container.appendChild(el('ul', {}, a.notes.map(function (n) { return el('li', {textContent: n}); })));
    }
  })();
};
