// hwcomm report page, link classes section: per file, the identical-link
// classes of its records (src/classes), each with its representative, how
// many members, how its records were measured (full sweep, confirmed at a few
// sizes, promoted to a full sweep) and links to their charts; then what the
// run took beside its plan's estimate, per method. Called by report.js with
// its helpers.
window.hwcommDrawClasses = function (model, helpers) {
  'use strict';
  var el = helpers.el;
  var groupOf = {};
  model.groups.forEach(function (g, i) { g.curves.forEach(function (c) { groupOf[c.id] = i; }); });
  function chartLinks(ids) {
    var seen = {};
    return el('span', {}, ids.filter(function (id) {
      var g = groupOf[id];
      return g !== undefined && !seen[g] && (seen[g] = true);
    }).map(function (id) {
      return el('a', {className: 'chart-link', href: '#bandwidth-' + groupOf[id], textContent: model.groups[groupOf[id]].title});
    }));
  }
  var container = document.getElementById('classes-tables');
  function drawRunTime(rows) {
    if (!rows.length) return;
    var head = ['method', 'records', 'full', 'confirmed', 'promoted', 'twice', 'estimate', 'measured', 'error'];
    var table = el('table', {className: 'analysis run-time'}, [el('tr', {}, head.map(function (h) { return el('th', {textContent: h}); }))]);
    rows.forEach(function (r) {
      var error = r.timed && r.elapsed_s > 0 ? Math.round((r.estimate_s / r.elapsed_s - 1) * 100) : null;
      table.appendChild(el('tr', {className: r.method ? '' : 'total'}, [
        el('td', {textContent: r.method || 'total'}), el('td', {textContent: String(r.records)}),
        el('td', {textContent: String(r.full)}), el('td', {textContent: String(r.confirmed)}),
        el('td', {className: r.promoted ? 'verdict verdict-true' : '', textContent: String(r.promoted)}),
        el('td', {textContent: String(r.measured_twice || 0)}),
        el('td', {textContent: r.estimate_s.toFixed(1) + ' s'}), el('td', {textContent: r.elapsed_s.toFixed(1) + ' s'}),
        el('td', {textContent: error === null ? '-' : (error > 0 ? '+' : '') + error + '%'})]));
    });
    container.appendChild(el('p', {className: 'caption', textContent: 'Run time against the plan\u2019s estimate ' +
      '(context.elapsed_s and estimate_s of each record): error = estimate / measured - 1; a promotion\u2019s time ' +
      'includes its confirmation, its estimate is the confirmation\u2019s; twice: confirmations outside their class ' +
      'once and measured again (kept when the second lay within, else promoted).'}));
    container.appendChild(table);
  }
  (model.classes || []).forEach(function (file) {
    if (model.classes.length > 1) container.appendChild(el('h3', {textContent: file.name}));
    if (file.error) {
      container.appendChild(el('p', {className: 'errors', textContent: file.error}));
      return;
    }
    var head = ['class', 'what the members cross', 'members', 'representative', 'full', 'confirmed', 'promoted', 'charts'];
    var table = el('table', {className: 'analysis classes'}, [el('tr', {}, head.map(function (h) { return el('th', {textContent: h}); }))]);
    file.classes.forEach(function (c) {
      var m = c.measured_as;
      table.appendChild(el('tr', {}, [
        el('td', {textContent: c.id}),
        el('td', {textContent: c.description + (c.rates_known ? '' : ' (rates unknown: grouped by structure)')}),
        el('td', {textContent: String(c.members)}), el('td', {textContent: c.representative}),
        el('td', {textContent: String(m.full)}), el('td', {textContent: String(m.confirmed)}),
        el('td', {className: m.promoted ? 'verdict verdict-true' : '', textContent: String(m.promoted)}),
        el('td', {}, [chartLinks(c.curves)])]));
    });
    container.appendChild(table);
    (file.notes || []).forEach(function (n) { container.appendChild(el('p', {className: 'caption', textContent: n})); });
    drawRunTime(file.run_time || []);
  });
  if (!container.childNodes.length) container.appendChild(el('p', {textContent: 'No classes: the files hold no topology.'}));
};
