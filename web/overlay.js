/* The broadcast overlay: a compact score bug on a transparent page, for OBS's browser
   source or vMix. ?fields=home,away,game chooses the fields (default: all), ?scale=1.5
   its size. */
(function () {
  'use strict';
  var query = {};
  location.search.replace(/^\?/, '').split('&').forEach(function (pair) {
    var parts = pair.split('=');
    if (parts[0]) query[decodeURIComponent(parts[0])] = decodeURIComponent(parts[1] || '');
  });
  var wanted = query.fields ? query.fields.split(',') : null;
  var scale = parseFloat(query.scale);
  var bug = document.getElementById('bug');
  if (scale > 0 && scale <= 10) bug.style.fontSize = (scale * 100) + '%';
  var cells = {};
  Scoreboard.follow(function (layout) {
    bug.textContent = '';
    cells = {};
    layout.fields.forEach(function (field) {
      if (wanted && wanted.indexOf(field.name) < 0) return;
      var cell = document.createElement('span');
      cell.className = 'item ' + field.kind;
      var label = document.createElement('span');
      label.className = 'label';
      label.textContent = field.label;
      var value = document.createElement('span');
      value.className = 'value';
      value.setAttribute('data-field', field.name);
      cell.appendChild(label);
      cell.appendChild(value);
      bug.appendChild(cell);
      cells[field.name] = value;
    });
  }, function (texts) {
    Object.keys(cells).forEach(function (name) {
      cells[name].textContent = (texts[name] || '').trim();
    });
  });
})();
