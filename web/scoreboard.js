/* scoreboardd's pages: the board's layout and state from /api/events (Server-Sent
   Events), running clocks run here from their published start, and seven-segment digits
   drawn as SVG. Plain ES5, no framework, nothing from the internet. */
(function () {
  'use strict';

  // Segments a-g as bits 0-6, as the displays have them.
  var FONT = {
    '0': 0x3f, '1': 0x06, '2': 0x5b, '3': 0x4f, '4': 0x66, '5': 0x6d, '6': 0x7d, '7': 0x07,
    '8': 0x7f, '9': 0x6f, ' ': 0x00, '-': 0x40, '_': 0x08, 'A': 0x77, 'B': 0x7c, 'C': 0x39,
    'D': 0x5e, 'E': 0x79, 'F': 0x71, 'G': 0x3d, 'H': 0x76, 'I': 0x06, 'J': 0x1e, 'L': 0x38,
    'N': 0x54, 'O': 0x3f, 'P': 0x73, 'R': 0x50, 'S': 0x6d, 'T': 0x78, 'U': 0x3e, 'Y': 0x6e
  };
  // Each segment's polygon in a 60 x 100 cell.
  var SEGMENTS = [
    '12,4 48,4 42,10 18,10', '50,6 50,46 44,42 44,12', '50,54 50,94 44,88 44,58',
    '48,96 12,96 18,90 42,90', '10,94 10,54 16,58 16,88', '10,46 10,6 16,12 16,42',
    '13,50 19,46 41,46 47,50 41,54 19,54'
  ];
  var SVG = 'http://www.w3.org/2000/svg';

  /* The cells of `text` as {bits, dot, colon}: a '.' lights the point of the cell before
     it, a ':' the colon after it. */
  function cells(text) {
    var result = [];
    for (var i = 0; i < text.length; i++) {
      var ch = text.charAt(i).toUpperCase();
      if ((ch === '.' || ch === ':') && result.length > 0) {
        result[result.length - 1][ch === '.' ? 'dot' : 'colon'] = true;
        continue;
      }
      result.push({bits: FONT.hasOwnProperty(ch) ? FONT[ch] : 0, dot: false, colon: false});
    }
    return result;
  }

  /* An SVG of `count` digit cells, with its update function. */
  function makeDigits(count) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + (count * 72) + ' 100');
    svg.setAttribute('class', 'digits');
    var parts = [];
    for (var c = 0; c < count; c++) {
      var group = document.createElementNS(SVG, 'g');
      group.setAttribute('transform', 'translate(' + (c * 72) + ',0)');
      var cell = {group: group, segments: [], dot: null, colon: null};
      for (var s = 0; s < 7; s++) {
        var polygon = document.createElementNS(SVG, 'polygon');
        polygon.setAttribute('points', SEGMENTS[s]);
        group.appendChild(polygon);
        cell.segments.push(polygon);
      }
      cell.dot = document.createElementNS(SVG, 'circle');
      cell.dot.setAttribute('cx', '56'); cell.dot.setAttribute('cy', '94'); cell.dot.setAttribute('r', '5');
      group.appendChild(cell.dot);
      cell.colon = document.createElementNS(SVG, 'g');
      ['32', '68'].forEach(function (y) {
        var dot = document.createElementNS(SVG, 'circle');
        dot.setAttribute('cx', '66'); dot.setAttribute('cy', y); dot.setAttribute('r', '5');
        cell.colon.appendChild(dot);
      });
      group.appendChild(cell.colon);
      svg.appendChild(group);
      parts.push(cell);
    }
    return {
      element: svg,
      // Each cell's <g>, leftmost first, for a page that marks cells (a cursor).
      cells: parts.map(function (part) { return part.group; }),
      show: function (text) { this.showCells(cells(text)); },
      // Cells as {bits, dot, colon}, right-aligned (a frame's cells, one for each).
      showCells: function (shown) {
        shown = shown.slice();
        while (shown.length < count) shown.unshift({bits: 0, dot: false, colon: false});
        shown = shown.slice(shown.length - count);
        for (var c = 0; c < count; c++) {
          for (var s = 0; s < 7; s++) {
            parts[c].segments[s].setAttribute('class', shown[c].bits & (1 << s) ? 'on' : 'off');
          }
          parts[c].dot.setAttribute('class', shown[c].dot ? 'on' : 'off');
          parts[c].colon.setAttribute('class', shown[c].colon ? 'colon on' : 'colon off');
        }
      }
    };
  }

  function pad(number, width) {
    var text = String(number);
    while (text.length < width) text = '0' + text;
    return text;
  }

  /* A clock's text for `ms` milliseconds, as the board shows it: M:SS, or SS.t below
     its tenths threshold (counting down, rounded up; counting up, down). */
  function clockText(ms, layout, down) {
    ms = Math.max(ms, 0);
    var tenths = down ? Math.ceil(ms / 100) : Math.floor(ms / 100);
    if (tenths * 100 < layout.tenths_below_ms) {
      return Math.floor(tenths / 10) + '.' + (tenths % 10);
    }
    var seconds = down ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
    if (!layout.minutes) return String(seconds);
    return Math.floor(seconds / 60) + ':' + pad(seconds % 60, 2);
  }

  /* Follows the board: calls `onLayout(layout)` and `onFrame(texts)` (each field's text
     now, by name) whenever something changes, and every tenth while a clock runs.
     Returns the EventSource, for a page that listens to more of its events. */
  function follow(onLayout, onFrame, onConnection) {
    var layout = null;
    var state = null;
    // The server's clock minus the page's, from the last state's publishing instant. The
    // page's is a monotonic one, so setting the phone's clock moves no running clock; the
    // server's instants in a document are all taken at its publishing, so setting the
    // board's clock moves none either.
    var offset = 0;
    var pageClock = window.performance && performance.now ?
      function () { return performance.now(); } : function () { return Date.now(); };

    function texts() {
      var now = pageClock() + offset;
      var result = {};
      layout.fields.forEach(function (field) {
        var entry = state.fields[field.name];
        if (!entry) return;
        var clock = entry.clock;
        if (field.kind === 'clock' && clock && clock.running && clock.started_at_ms !== null) {
          var down = clock.counts === 'down';
          var elapsed = Math.max(now - clock.started_at_ms, 0);
          var ms = down ? clock.time_at_start_ms - elapsed : clock.time_at_start_ms + elapsed;
          ms = down ? Math.max(ms, clock.end_ms) : Math.min(ms, clock.end_ms || ms);
          result[field.name] = clockText(ms, field, down);
        } else if (field.kind === 'penalties' && entry.penalties) {
          result[field.name] = penaltyText(field, entry, now);
        } else {
          result[field.name] = entry.shown;
        }
      });
      return result;
    }

    /* A penalties field's slots at `now`: serving penalties run down with the game time
       played since the state was published (the game clock's running time, up to its
       end), each slot the player and M:SS, as the board's digits show them. */
    function penaltyText(field, entry, now) {
      var game = entry.game_clock && state.fields[entry.game_clock];
      var clock = game && game.clock, played = 0;
      if (clock && clock.running && clock.started_at_ms !== null) {
        var left = clock.counts === 'down' ? clock.time_ms - clock.end_ms : clock.end_ms - clock.time_ms;
        played = Math.min(Math.max(now - state.published_at_ms, 0), Math.max(left, 0));
      }
      var text = '', shown = 0, slotWidth = field.player_digits + field.time_digits;
      entry.penalties.forEach(function (penalty) {
        var ms = penalty.state === 'serving' ? penalty.remaining_ms - played : penalty.remaining_ms;
        if (shown === field.slots || ms <= 0) return;
        var seconds = Math.ceil(ms / 1000), player = String(penalty.player);
        var time = Math.floor(seconds / 60) + ':' + pad(seconds % 60, 2);
        while (player.length < field.player_digits) player = ' ' + player;
        while (time.length < field.time_digits + 1) time = ' ' + time;
        text += player + time;
        shown += 1;
      });
      for (; shown < field.slots; shown++) text += new Array(slotWidth + 1).join(' ');
      return text;
    }

    function draw() {
      if (layout && state) onFrame(texts(), state);
    }

    var source = new EventSource('/api/events');
    source.addEventListener('layout', function (event) {
      layout = JSON.parse(event.data);
      onLayout(layout);
      draw();
    });
    source.addEventListener('state', function (event) {
      state = JSON.parse(event.data);
      offset = state.published_at_ms - pageClock();
      draw();
    });
    source.onopen = function () { if (onConnection) onConnection(true); };
    source.onerror = function () { if (onConnection) onConnection(false); };
    setInterval(draw, 50);
    return source;
  }

  /* The box score of `state` (the points of each period, the current one last, and the
     totals) as a table in `container`, redrawn only when it changed; nothing when the
     board keeps no scores by period. */
  function showBoxScore(container, state, layout) {
    var periods = state.periods || setPeriods(state, layout);
    var key = JSON.stringify(periods);
    if (container.getAttribute('data-periods') === key) return;
    container.setAttribute('data-periods', key);
    container.textContent = '';
    container.hidden = !periods.length;
    if (!periods.length) return;
    var names = Object.keys(periods[0].points);
    var labels = {};
    layout.fields.forEach(function (field) { labels[field.name] = field.label; });
    var table = document.createElement('table');
    table.className = 'box-score';
    function row(cells, header) {
      var tr = document.createElement('tr');
      cells.forEach(function (text, index) {
        var cell = document.createElement(header || index === 0 ? 'th' : 'td');
        cell.textContent = text;
        tr.appendChild(cell);
      });
      table.appendChild(tr);
    }
    row([''].concat(periods.map(function (p) { return p.period; }), ['T']), true);
    names.forEach(function (name) {
      row([labels[name] || name].concat(periods.map(function (p) { return String(p.points[name]); }),
        [String(periods[periods.length - 1].totals[name])]));
    });
    container.appendChild(table);
  }

  /* With set scoring, the sets won and the one being played as periods: each team's
     points in each set, and its sets won as the total. */
  function setPeriods(state, layout) {
    if (!state.sets) return [];
    var names = layout.fields.filter(function (field) {
      return field.sets_of;
    }).map(function (field) { return [field.sets_of, field.name]; });
    if (!names.length) return [];
    var current = {}, totals = {};
    names.forEach(function (pair) {
      var points = state.fields[pair[0]], sets = state.fields[pair[1]];
      current[pair[0]] = points ? points.value : 0;
      totals[pair[0]] = sets ? sets.value : 0;
    });
    return state.sets.map(function (set, index) {
      return {period: String(index + 1), points: set, totals: totals};
    }).concat([{period: String(state.sets.length + 1), points: current, totals: totals}]);
  }

  window.Scoreboard = {makeDigits: makeDigits, follow: follow, clockText: clockText, cells: cells,
    showBoxScore: showBoxScore};
})();
