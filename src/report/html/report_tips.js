// hwcomm report page, chart tooltips as DOM nodes. ECharts inserts a
// formatter's string as HTML, and the text of a tooltip comes from the data
// (results file names, endpoint ids, parameter values, point reasons), so a
// tooltip is built from text nodes and never from a string of markup.
window.hwcommTip = function (lines) {
  'use strict';
  // lines: one array per line; a part is text, or {marker: colour} for the series' dot.
  var box = document.createElement('div');
  box.className = 'tip';
  lines.forEach(function (parts, i) {
    if (i) box.appendChild(document.createElement('br'));
    parts.forEach(function (part) {
      if (part && typeof part === 'object') {
        var dot = document.createElement('span');
        dot.className = 'tip-marker';
        if (typeof part.marker === 'string') dot.style.backgroundColor = part.marker;
        box.appendChild(dot);
      } else {
        box.appendChild(document.createTextNode(String(part)));
      }
    });
  });
  return box;
};
