/* The board page: each display as the daemon's frames have it (segments, points,
   colons, dark cells, labels drawn in cells, indicators), with the fields' labels above
   their cells and the horn; running clocks run here from their published start, so the
   frames come only when something else changes. */
(function () {
  'use strict';
  var container = document.getElementById('fields');
  var horn = document.getElementById('horn');
  var layout = null;
  var frames = null;
  var views = {};

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function build(newLayout) {
    layout = newLayout;
    document.getElementById('name').textContent = layout.name;
    document.title = layout.name;
    container.textContent = '';
    views = {};
    (layout.displays || []).forEach(function (display) {
      var box = element('section', 'display');
      box.setAttribute('data-display', display.name);
      var labels = element('div', 'labels');
      labels.style.gridTemplateColumns = 'repeat(' + display.cells + ', 1fr)';
      var fields = {};
      layout.fields.forEach(function (field) {
        if (field.display !== display.name) return;
        var label = element('h2', 'field ' + field.kind, field.label);
        label.setAttribute('data-field', field.name);
        label.style.gridColumn = (field.position + 1) + ' / span ' + field.digits;
        labels.appendChild(label);
        fields[field.name] = label;
      });
      box.appendChild(labels);
      var digits = Scoreboard.makeDigits(display.cells);
      box.appendChild(digits.element);
      var lights = element('div', 'indicators');
      var indicators = (display.indicators || []).map(function (name) {
        if (name === null) return null;
        var light = element('span', 'indicator', name);
        lights.appendChild(light);
        return light;
      });
      if (lights.childNodes.length) box.appendChild(lights);
      container.appendChild(box);
      views[display.name] = {box: box, digits: digits, fields: fields, indicators: indicators};
    });
  }

  /* The cells of display `display` now: the frame's, with each running clock's cells
     (and the penalties that run with it) worked out here from its published start. */
  function cellsOf(display, frame, texts, state) {
    var list = frame.cells.map(function (bits) {
      return {bits: bits & 0x7f, dot: (bits & 0x80) !== 0, colon: false};
    });
    frame.colons.forEach(function (index) {
      // The cell before a colon also has its point lit, for displays without a colon.
      if (list[index]) { list[index].colon = true; list[index].dot = false; }
    });
    layout.fields.forEach(function (field) {
      var entry = state.fields[field.name];
      if (field.display !== display.name || !entry) return;
      // Penalties run with their game clock.
      var clock = field.kind === 'clock' ? entry.clock :
        field.kind === 'penalties' && entry.game_clock && state.fields[entry.game_clock] ?
          state.fields[entry.game_clock].clock : null;
      if (!clock || !clock.running) return;
      var shown = Scoreboard.cells(texts[field.name] || '');
      while (shown.length < field.digits) shown.unshift({bits: 0, dot: false, colon: false});
      shown = shown.slice(shown.length - field.digits);
      for (var i = 0; i < field.digits; i++) list[field.position + i] = shown[i];
    });
    return list;
  }

  function draw(texts, state) {
    Scoreboard.showBoxScore(document.getElementById('box-score'), state, layout);
    Object.keys(texts).forEach(function (name) {
      layout.fields.forEach(function (field) {
        if (field.name !== name || !views[field.display]) return;
        var label = views[field.display].fields[name];
        if (label) label.setAttribute('data-shown', texts[name]);
      });
    });
    if (!frames) return;
    (layout.displays || []).forEach(function (display) {
      var view = views[display.name];
      var frame = frames.displays[display.name];
      if (!view || !frame) return;
      var list = frame.blank ? [] : cellsOf(display, frame, texts, state);
      view.digits.showCells(list);
      view.box.setAttribute('data-cells', list.map(function (cell) {
        return cell.bits;
      }).join(' '));
      // Brightness 0-15: dimmer, never invisible.
      view.box.style.opacity = String(0.45 + 0.55 * frame.brightness / 15);
      view.indicators.forEach(function (light, index) {
        if (light) light.className = 'indicator' + (frame.indicators[index] ? ' on' : '');
      });
    });
    var sounding = Object.keys(frames.horns || {}).some(function (name) {
      return frames.horns[name];
    });
    horn.hidden = !sounding;
  }

  var source = Scoreboard.follow(build, draw, function (connected) {
    document.getElementById('connection').hidden = connected;
  });
  source.addEventListener('frames', function (event) {
    frames = JSON.parse(event.data);
  });
})();
