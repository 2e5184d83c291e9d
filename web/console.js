/* The operator console at /: each field of the board as a digit input typed on the
   page's own pad; Done sends one control line to /api/command, and a refusal shows
   with its reason. Plain ES5, no framework, nothing from the internet. */
(function () {
  'use strict';

  var PLACEHOLDER = {'0': '0', 'blank': ' ', '-': '-'};
  var layout = null, layoutText = '', session = null, sessionKey = '', state = null;
  var views = {};   // each field's view, by name
  var edit = null;  // the entry being typed
  var keyboard = false, inInput = '', pairLater = false, pairPoll = null, messageTimer = null;
  var changes = [], connected = true, held = [];

  function $(id) { return document.getElementById(id); }

  function make(tag, className, text, action, value) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    if (tag === 'button') node.type = 'button';
    if (action) node.setAttribute('data-action', action);
    if (value !== undefined) node.setAttribute('data-value', value);
    return node;
  }

  function on(node, type, handler) {
    (typeof node === 'string' ? $(node) : node).addEventListener(type, handler);
  }

  function toggle(node, name, yes) {
    if (node.classList.contains(name) !== !!yes) node.classList.toggle(name);
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function inside(node, container) {
    for (; node; node = node.parentNode) if (node === container) return true;
    return false;
  }

  /* The nearest of `node` and its parents below `top` with attribute `name`. */
  function carrying(node, name, top) {
    for (; node && node !== top; node = node.parentNode) {
      if (node.getAttribute && node.getAttribute(name) !== null) return node;
    }
    return null;
  }

  function remember(key, value) {
    try {
      if (value === undefined) return localStorage.getItem(key);
      localStorage.setItem(key, value);
    } catch (e) { /* private browsing: not remembered */ }
    return null;
  }

  function pad2(n) { return (n < 10 ? '0' : '') + n; }

  function digitsOf(value) {
    var digits = [], rest = Math.abs(Math.floor(value));
    do { digits.unshift(rest % 10); rest = Math.floor(rest / 10); } while (rest > 0);
    return digits;
  }

  function times(value, count) {
    var list = [];
    while (list.length < count) list.push(value);
    return list;
  }

  /* A time as the control protocol writes it: 12:00, 0:52.4, 24, 4.9. */
  function timeText(ms, minutes) {
    var tenths = Math.round(ms / 100), seconds = Math.floor(tenths / 10);
    var tenth = tenths % 10 ? '.' + tenths % 10 : '';
    return (minutes ? Math.floor(seconds / 60) + ':' + pad2(seconds % 60) : seconds) + tenth;
  }

  function unerror(answer) { return String(answer || '').replace(/^error\s*/, ''); }

  // MARK: - The daemon

  function request(method, url, body, type, callback) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, url, true);
    xhr.setRequestHeader('Accept', 'application/json');
    if (type) xhr.setRequestHeader('Content-Type', type);
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) return;
      var data = null;
      try { data = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
      if (callback) callback(xhr.status, data || {});
    };
    xhr.timeout = 8000;
    xhr.send(body === undefined ? null : body);
  }

  /* Sends a control line; a refusal shows its reason and flashes `field`. */
  function command(line, field, done) {
    request('POST', '/api/command', line, 'text/plain;charset=UTF-8', function (status, data) {
      var ok = status === 200 && data.ok === true, answer = String(data.answer || '');
      if (status === 401) {
        unpaired();
        say(unerror(answer) || 'This phone is not paired.', 'refused');
      } else if (ok && /^unsaved /.test(answer)) {
        say(answer.replace(/^unsaved\s*/, ''), 'warning', 8000);
      } else if (ok) {
        if (!/^horn-/.test(line) && $('message').className === 'message refused') hush();
      } else {
        refuse(field, unerror(answer) ||
          (status ? 'The board answered ' + status + '.' : 'No answer from the board.'));
      }
      if (done) done(ok);
    });
  }

  function say(text, kind, ms) {
    var message = $('message');
    message.textContent = text;
    message.className = 'message ' + kind;
    message.hidden = false;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(hush, ms || (kind === 'refused' ? 8000 : 3000));
  }

  function hush() {
    $('message').hidden = true;
    $('message').className = 'message';
  }

  function refuse(name, reason) {
    say(reason, 'refused');
    flash(name);
  }

  function flash(name) {
    var view = views[name];
    if (!view) return;
    view.section.classList.remove('refused');
    void view.section.offsetWidth;  // restarts the animation
    view.section.classList.add('refused');
    clearTimeout(view.flashing);
    view.flashing = setTimeout(function () { view.section.classList.remove('refused'); }, 1500);
  }

  // MARK: - Pairing

  function paired() { return !!(session && session.paired); }

  function mayChange(name) {
    return paired() && (!session.fields || session.fields.indexOf(name) >= 0);
  }

  function loadSession() {
    request('GET', '/api/session', undefined, null, function (status, data) {
      if (status === 200) setSession(data);
      else if (status === 401) setSession({paired: false});
      else setTimeout(loadSession, 3000);
    });
  }

  function setSession(data) {
    session = data;
    var key = JSON.stringify([data.paired, data.device, data.fields]);
    if (key !== sessionKey && layout) render();
    sessionKey = key;
    var who = paired() ? data.device + (data.fields ? ' (' + data.fields.join(', ') + ')' : '') : '';
    setText($('device'), paired() ? data.device : 'watching');
    setText($('device-name'), paired() ? 'This phone is ' + who + '.' : '');
    $('unpair').hidden = !paired();
    setText($('pair-armed'), data.pairing ? 'A code is on the board now.' :
      'No code is on the board now: start pairing on the scoreboard first.');
    showPairing();
  }

  function unpaired() {
    pairLater = false;
    setSession({paired: false, pairing: !!(session && session.pairing)});
    loadSession();
  }

  function showPairing() {
    var unpairedNow = !!session && !paired();
    $('pairing').hidden = !unpairedNow || pairLater;
    $('pair-show').hidden = !unpairedNow || !pairLater;
    clearInterval(pairPoll);
    if (unpairedNow && !pairLater) pairPoll = setInterval(loadSession, 5000);
  }

  function pairSay(text) {
    $('pair-message').textContent = text;
    $('pair-message').hidden = !text;
  }

  function pair(event) {
    event.preventDefault();
    var code = $('pair-code').value.replace(/\D/g, '');
    var name = $('pair-name').value.replace(/^\s+|\s+$/g, '') || 'phone';
    if (code.length !== 6) return pairSay('The code has 6 digits.');
    $('pair-button').disabled = true;
    pairSay('');
    request('POST', '/api/pair', 'code=' + code + '&name=' + encodeURIComponent(name),
      'application/x-www-form-urlencoded', function (status, data) {
        $('pair-button').disabled = false;
        if (status === 200 && data.ok) {
          remember('scoreboard-device', name);
          $('pair-code').value = '';
          setSession({paired: true, device: data.device || name, fields: data.fields || null});
          say('Paired as ' + (data.device || name), 'ok');
        } else {
          pairSay(unerror(data.answer) || (status ? 'The board answered ' + status + '.' : 'No connection.'));
        }
      });
  }

  // MARK: - The fields

  /* The field's seven-segment cells, each on a background the cursor lights. */
  function setCells(view, count) {
    if (view.count === count) return;
    view.digits = Scoreboard.makeDigits(count);
    view.digits.cells.forEach(function (group) {
      var back = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      var box = {x: 1, y: -2, width: 66, height: 104, rx: 6, 'class': 'back'};
      for (var name in box) back.setAttribute(name, box[name]);
      group.insertBefore(back, group.firstChild);
    });
    view.count = count;
    view.shown = null;
    view.cells.textContent = '';
    view.cells.appendChild(view.digits.element);
  }

  /* Shows `text` in the field's own cells, or an entry's cells with their marks. */
  function show(view, text, marks) {
    view.digits.show(text);
    view.digits.cells.forEach(function (group, index) {
      group.setAttribute('class', 'cell' + (marks ? marks[index] : ''));
    });
  }

  function buildField(field) {
    var writable = mayChange(field.name), kind = field.kind;
    var section = make('section', 'field ' + kind + (writable ? '' : ' readonly'));
    section.setAttribute('data-field', field.name);
    section.setAttribute('data-shown', '');
    var head = make('h2', null, field.label), note = make('span', 'note');
    head.appendChild(note);
    section.appendChild(head);
    var cells = make(kind === 'list' || kind === 'penalties' ? 'div' : 'button', 'cells');
    if (kind !== 'list' && kind !== 'penalties') cells.setAttribute('aria-label', field.label + (writable ? ': type' : ''));
    if (!writable) cells.setAttribute('aria-disabled', 'true');
    var view = {field: field, section: section, cells: cells, writable: writable, count: 0};
    setCells(view, field.digits);
    var row = make('div', 'row');
    section.appendChild(row);
    if (kind === 'clock') {
      section.insertBefore(cells, row);
      row.className = 'row clock-buttons';
      if (field.follows) note.textContent = 'runs with ' + labelOf(field.follows);
      if (writable) clockButtons(view, row);
    } else if (kind === 'penalties') {
      section.insertBefore(cells, row);
      cells.setAttribute('aria-disabled', 'true');
      if (writable) penaltyButtons(view, row);
    } else if (kind === 'list') {
      row.appendChild(cells);
      var picker = make('div', 'picker');
      (field.values || []).forEach(function (value) {
        picker.appendChild(make('button', 'pick', value, 'pick', value));
      });
      if (writable) row.appendChild(picker);
    } else {
      if (writable) row.appendChild(make('button', 'step', '\u22121', 'minus'));
      row.appendChild(cells);
      if (writable) row.appendChild(make('button', 'step', '+1', 'plus'));
      // A timeout changes the clocks too: a device of every field's.
      if (writable && field.timeouts_of && !session.fields) {
        row.appendChild(make('button', 'reset', 'Timeout', 'timeout', field.timeouts_of));
      }
    }
    return view;
  }

  function clockButtons(view, row) {
    var field = view.field;
    row.appendChild(make('button', 'adjust', '\u22121 s', 'adjust-down'));
    row.appendChild(view.startStop = make('button', 'start-stop', 'Start', 'start-stop'));
    row.appendChild(make('button', 'adjust', '+1 s', 'adjust-up'));
    var resets = (field.resets_ms || []).slice(), line = make('div', 'row resets');
    if (!resets.length && field.length_ms) resets.push(field.counts === 'up' ? 0 : field.length_ms);
    resets.forEach(function (ms) {
      line.appendChild(make('button', 'reset', '\u21ba ' + timeText(ms, field.minutes), 'reset', String(ms)));
    });
    if (resets.length) view.section.appendChild(line);
  }

  /* A penalty is given here: the player (the phone's number pad, with its Done key), one
     of the field's lengths, Give; End ends the player's penalty now. */
  function penaltyButtons(view, row) {
    var field = view.field;
    view.player = make('input', 'player');
    view.player.type = 'text';
    view.player.setAttribute('inputmode', 'numeric');
    view.player.setAttribute('pattern', '[0-9]*');
    view.player.setAttribute('enterkeyhint', 'done');
    view.player.setAttribute('maxlength', String(field.player_digits));
    view.player.setAttribute('placeholder', 'No.');
    view.player.setAttribute('aria-label', field.label + ': player');
    row.appendChild(view.player);
    var picker = make('div', 'picker');
    (field.lengths_ms || []).forEach(function (ms, index) {
      var pick = make('button', 'pick' + (index === 0 ? ' picked' : ''), timeText(ms, true), 'length', String(ms));
      picker.appendChild(pick);
    });
    view.length = (field.lengths_ms || [120000])[0];
    row.appendChild(picker);
    var actions = make('div', 'row'), give = make('button', 'reset', 'Give', 'penalty-add');
    actions.appendChild(give);
    // The number pad's Done gives the penalty.
    on(view.player, 'keydown', function (event) {
      if (event.key === 'Enter' || event.keyCode === 13) {
        event.preventDefault();
        onPenaltyClick(view, give);
      }
    });
    actions.appendChild(make('button', 'reset', 'End', 'penalty-end'));
    view.section.appendChild(actions);
  }

  function labelOf(name) {
    for (var i = 0; i < layout.fields.length; i++) {
      if (layout.fields[i].name === name) return layout.fields[i].label;
    }
    return name;
  }

  function render() {
    endEdit();
    var container = $('fields');
    container.textContent = '';
    views = {};
    layout.fields.forEach(function (field) {
      views[field.name] = buildField(field);
      container.appendChild(views[field.name].section);
    });
    renderHorns();
    ['undo', 'brightness-down', 'brightness-up', 'blank'].forEach(function (id) {
      $(id).hidden = !paired();
    });
    // The next period changes the period, the clocks and the fouls: every field's device.
    $('next-period').hidden = !paired() || !!session.fields ||
      !layout.fields.some(function (field) { return field.counts_periods; });
  }

  /* Every 50 ms: the fields' texts (clocks run here) and buttons; writes what changed. */
  function frame(texts, newState) {
    state = newState;
    Scoreboard.showBoxScore($('box-score'), state, layout);
    Object.keys(views).forEach(function (name) {
      var view = views[name], field = view.field, entry = state.fields[name] || {};
      var text = texts[name] === undefined ? '' : texts[name];
      if (view.section.getAttribute('data-shown') !== text) view.section.setAttribute('data-shown', text);
      if (!edit || edit.view !== view) {
        setCells(view, field.digits);
        if (view.shown !== text) show(view, view.shown = text);
      }
      if (field.kind === 'clock') {
        var running = !!(entry.clock && entry.clock.running);
        if (view.running === running) return;
        view.running = running;
        toggle(view.section, 'running', running);
        if (!view.startStop) return;
        view.startStop.textContent = running ? 'Stop' : 'Start';
        toggle(view.startStop, 'stop', running);
      } else if (field.kind === 'list') {
        var value = String(entry.value === undefined ? text : entry.value).replace(/^\s+|\s+$/g, '');
        if (view.picked === value) return;
        view.picked = value;
        var picks = view.section.querySelectorAll('[data-action="pick"]');
        for (var i = 0; i < picks.length; i++) {
          var yes = picks[i].getAttribute('data-value') === value;
          toggle(picks[i], 'picked', yes);
          picks[i].setAttribute('aria-pressed', String(yes));
        }
      }
    });
    setText($('brightness'), state.brightness + '/' + (((layout && layout.brightness_levels) || 16) - 1));
    var blank = !!state.blank;
    setText($('blank'), blank ? 'Blank: on' : 'Blank: off');
    toggle($('blank'), 'on', blank);
    $('blank').setAttribute('aria-pressed', String(blank));
    $('blank').setAttribute('data-command', blank ? 'blank off' : 'blank on');
    $('blanked').hidden = !blank;
    toggle(document.body, 'blanked', blank);
  }

  function onFieldsClick(event) {
    var section = carrying(event.target, 'data-field', this);
    var view = section && views[section.getAttribute('data-field')];
    if (!view) return;
    var button = carrying(event.target, 'data-action', section);
    if (!button) {
      if (inside(event.target, view.cells)) beginEdit(view);
      return;
    }
    var name = view.field.name, value = button.getAttribute('data-value');
    if (view.field.kind === 'penalties') return onPenaltyClick(view, button);
    var line = {
      'plus': 'add ' + name + ' +1', 'minus': 'add ' + name + ' -1', 'pick': 'set ' + name + ' ' + value,
      'start-stop': 'start-stop ' + name, 'adjust-up': 'adjust ' + name + ' +1',
      'adjust-down': 'adjust ' + name + ' -1',
      'reset': 'reset-clock ' + name + ' ' + timeText(Number(value), view.field.minutes),
      'timeout': 'timeout ' + value
    }[button.getAttribute('data-action')];
    if (line) command(line, name);
  }

  function onPenaltyClick(view, button) {
    var action = button.getAttribute('data-action'), field = view.field;
    if (action === 'length') {
      view.length = Number(button.getAttribute('data-value'));
      var picks = view.section.querySelectorAll('[data-action="length"]');
      for (var i = 0; i < picks.length; i++) toggle(picks[i], 'picked', picks[i] === button);
      return;
    }
    var player = view.player.value.replace(/^\s+|\s+$/g, '');
    if (!/^[0-9]+$/.test(player)) return say('Type the player\'s number first.', 'info');
    var line = action === 'penalty-add' ?
      'penalty add ' + field.team + ' ' + player + ' ' + timeText(view.length, true) :
      'penalty end ' + field.team + ' ' + player;
    command(line, field.name);
    view.player.value = '';
  }

  // MARK: - Entries, as the keypad types them: type-over or calculator-style

  function beginEdit(view) {
    var field = view.field, entry = state && state.fields[field.name];
    if (edit && edit.view === view) return;
    endEdit();
    if (!view.writable) {
      if (paired()) return say('This phone may not change ' + field.label + '.', 'info');
      pairLater = false;
      showPairing();
      $('page').scrollTop = 0;
      return say('Pair this phone to change the board.', 'info');
    }
    // A list is picked from its buttons, a penalty given with its own.
    if (field.kind === 'list' || field.kind === 'penalties' || !entry) return;
    var typed = {view: view, field: field, mode: field.entry === 'overwrite' ? 'overwrite' : 'shift',
      cursor: 0, fresh: true};
    if (field.kind === 'clock') {
      if (entry.clock && entry.clock.running) return say('Stop ' + field.label + ' to type its time.', 'info');
      startClock(typed, entry.clock ? entry.clock.time_ms : 0);
    } else {
      var digits = digitsOf(typeof entry.value === 'number' ? entry.value : parseInt(entry.shown, 10) || 0);
      if (typed.mode === 'shift') typed.digits = digits;
      else typed.cells = times(null, field.digits - digits.length).concat(digits);
    }
    edit = typed;
    view.section.classList.add('editing');
    openPad();
    drawEdit();
  }

  /* A clock's entry starts as the keypad's: its digits as they would be typed (1000 for
     10:00, 00524 for 0:52.4), rounded the way the clock shows them. */
  function startClock(typed, ms) {
    var field = typed.field, down = field.counts !== 'up';
    var tenths = down ? Math.ceil(ms / 100 - 1e-9) : Math.floor(ms / 100 + 1e-9);
    var seconds = down && typed.mode === 'overwrite' ? Math.ceil(tenths / 10) : Math.floor(tenths / 10);
    var digits = digitsOf(field.minutes ? Math.floor(seconds / 60) * 100 + seconds % 60 : seconds);
    var width = field.minutes ? 4 : 2;
    if (typed.mode === 'overwrite') typed.cells = times(null, width - digits.length).concat(digits);
    else if (tenths % 10 === 0) typed.digits = digits;
    else typed.digits = times(0, width - digits.length).concat(digits, [tenths % 10]);
  }

  function maxDigits(field) {
    return field.kind === 'clock' ? (field.minutes ? 5 : 3) : field.digits;
  }

  function typeDigit(digit) {
    if (!edit || edit.sending) return;
    var field = edit.field;
    if (edit.mode === 'overwrite') {
      var last = edit.cells.length - 1, at = Math.min(edit.cursor, last);
      edit.cells[at] = digit;
      edit.cursor = at + 1;
      drawEdit();
      if (at === last && field.commit_on_last_digit) commit();
      return;
    }
    var typed = edit.fresh ? [] : edit.digits.slice();
    if (field.kind !== 'clock' && typed.join('') === '0') typed = [];
    typed.push(digit);
    if (typed.length > maxDigits(field)) {
      flash(field.name);
      return say(field.label + ' takes ' + maxDigits(field) + ' digits at most.', 'info');
    }
    edit.digits = typed;
    edit.fresh = false;
    drawEdit();
  }

  function backspace() {
    if (!edit || edit.sending) return;
    if (edit.mode === 'shift') {
      edit.digits = edit.digits.slice(0, -1);
      edit.fresh = false;
    } else if (edit.cursor > 0) {
      edit.cursor = Math.min(edit.cursor, edit.cells.length) - 1;
      edit.cells[edit.cursor] = null;
    }
    drawEdit();
  }

  /* What Done sends: a number, or a clock's time calculator-style (1200 is 12:00, 12345
     is 12:34.5; without minutes 24 is 24 and 245 is 24.5). */
  function entryValue() {
    var field = edit.field, number = 0, tenth = '';
    var digits = (edit.mode === 'shift' ? edit.digits : edit.cells).map(Number);
    if (field.kind === 'clock' && digits.length === maxDigits(field)) tenth = '.' + digits.pop();
    digits.forEach(function (digit) { number = number * 10 + digit; });
    if (field.kind !== 'clock' || !field.minutes) return number + tenth;
    return Math.floor(number / 100) + ':' + pad2(number % 100) + tenth;
  }

  function commit() {
    if (!edit || edit.sending) return;
    if (edit.mode === 'shift' ? edit.fresh : edit.cursor === 0) return endEdit();  // nothing typed
    var typed = edit, name = typed.field.name;
    typed.sending = true;
    typed.view.section.classList.add('sending');
    command('set ' + name + ' ' + entryValue(), name, function (ok) {
      typed.sending = false;
      typed.view.section.classList.remove('sending');
      // Refused: the entry stays, to be put right or cancelled, as on the keypad.
      if (edit === typed && (ok || !paired())) endEdit();
    });
  }

  function endEdit() {
    if (!edit) return;
    var view = edit.view;
    edit = null;
    view.section.classList.remove('editing');
    view.section.classList.remove('sending');
    view.section.removeAttribute('data-entry');
    setCells(view, view.field.digits);
    show(view, view.shown = view.section.getAttribute('data-shown') || '');
    closePad();
  }

  /* The entry's cells, [{text, placeholder}], and the cursor's; a clock's untyped cells
     are dim zeros. */
  function entryCells() {
    var field = edit.field, list = [], dim = PLACEHOLDER[field.placeholder] || ' ';
    var typed = edit.mode === 'shift' ? edit.digits : edit.cells, tenth = null;
    function add(digit) {
      list.push(digit === null ? {text: dim, placeholder: true} : {text: String(digit)});
    }
    if (field.kind !== 'clock') {
      times(null, field.digits - typed.length).concat(typed.slice(-field.digits)).forEach(add);
    } else {
      typed = typed.slice();
      if (typed.length === maxDigits(field)) tenth = typed.pop();
      dim = '0';
      times(null, (field.minutes ? 3 : 1) - typed.length).concat(typed).forEach(add);
      if (field.minutes) list[list.length - 3].text += ':';
      if (tenth !== null) {
        list[list.length - 1].text += '.';
        add(tenth);
      }
    }
    var cursor = edit.mode === 'shift' ? list.length - 1 :
      list.length - edit.cells.length + Math.min(edit.cursor, edit.cells.length - 1);
    return {cells: list, cursor: cursor};
  }

  function drawEdit() {
    var view = edit.view, entry = entryCells(), marks = [];
    var count = Math.max(view.field.digits, entry.cells.length), offset = count - entry.cells.length;
    setCells(view, count);
    for (var i = 0; i < count; i++) {
      var cell = entry.cells[i - offset] || {};
      marks.push((cell.placeholder ? ' placeholder' : '') + (i - offset === entry.cursor ? ' cursor' : ''));
    }
    show(view, entry.cells.map(function (cell) { return cell.text; }).join(''), marks);
    view.shown = null;
    view.section.setAttribute('data-entry', entryValue());
  }

  // MARK: - The pad, or the phone's keyboard instead of it

  function openPad() {
    var field = edit.field;
    $('pad-label').textContent = field.label;
    $('pad-hint').textContent = field.kind !== 'clock' || edit.mode === 'overwrite' ?
      (edit.mode === 'shift' ? 'digits come in from the right' : 'type over, left to right') :
      field.minutes ? '1200 is 12:00; five digits for tenths' : '24, or 245 for 24.5';
    $('pad').hidden = false;
    setKeyboard(keyboard);
    var page = $('page'), box = edit.view.section.getBoundingClientRect();
    var shown = page.getBoundingClientRect();
    if (box.bottom > shown.bottom) page.scrollTop += box.bottom - shown.bottom;
    else if (box.top < shown.top) page.scrollTop -= shown.top - box.top;
  }

  function closePad() {
    $('pad').hidden = true;
    $('keyboard-entry').blur();
  }

  function setKeyboard(yes) {
    var input = $('keyboard-entry'), button = $('keyboard-toggle');
    keyboard = yes;
    remember('scoreboard-keyboard', yes ? '1' : '0');
    toggle($('pad'), 'keyboard', yes);
    button.textContent = yes ? 'pad' : 'keyboard';
    button.setAttribute('aria-pressed', String(yes));
    input.hidden = !yes;
    input.value = inInput = '';
    if (yes && edit) input.focus();
  }

  function onPadClick(event) {
    if (inside(event.target, $('keyboard-toggle'))) return setKeyboard(!keyboard);
    var key = carrying(event.target, 'data-key', this);
    press(key && key.getAttribute('data-key'));
  }

  function press(key) {
    if (!edit || !key) return;
    if (/^[0-9]$/.test(key)) typeDigit(Number(key));
    else if (key === 'backspace' || key === 'Backspace') backspace();
    else if (key === 'done' || key === 'Enter') commit();
    else if (key === 'cancel' || key === 'Escape' || key === 'Esc') endEdit();
    else return false;
    return true;
  }

  /* The phone's keyboard types into an input: each new digit is a key of the pad, each
     one taken away a backspace. */
  function onKeyboardInput() {
    var input = $('keyboard-entry'), now = input.value.replace(/\D/g, ''), same = 0, i;
    while (same < now.length && now.charAt(same) === inInput.charAt(same)) same++;
    for (i = same; i < inInput.length; i++) backspace();
    for (i = same; i < now.length; i++) typeDigit(Number(now.charAt(i)));
    input.value = inInput = edit ? now : '';
  }

  /* Enter, Escape, backspace in the empty input; a computer's keys. */
  function onKey(event) {
    var key = event.key || {8: 'Backspace', 13: 'Enter', 27: 'Escape'}[event.keyCode];
    var target = event.target;
    if (!edit || (target.tagName === 'INPUT' && (target.id !== 'keyboard-entry' ||
      /^[0-9]$/.test(key) || (key === 'Backspace' && target.value)))) return;
    if (press(key)) event.preventDefault();
  }

  // MARK: - Horns: held while pressed, repeated so that a lost connection silences them

  function renderHorns() {
    releaseHorns();
    var container = $('horns'), horns = (paired() && layout.horns) || [];
    container.textContent = '';
    horns.forEach(function (horn) {
      var node = make('button', 'horn', horns.length > 1 ? 'Horn ' + horn.name : 'Horn');
      node.setAttribute('data-horn', horn.name);
      node.appendChild(make('small', null, 'hold'));
      holdable(node, horn.name);
      container.appendChild(node);
    });
  }

  function holdable(node, name) {
    var hold = {name: name, node: node, timer: null};
    function down(event) {
      if (event.cancelable) event.preventDefault();
      if (hold.timer) return;
      node.classList.add('held');
      command('horn-hold ' + name);
      hold.timer = setInterval(function () { command('horn-hold ' + name); }, 300);
      held.push(hold);
    }
    function up() { release(hold); }
    var downs = window.PointerEvent ? ['pointerdown'] : ['touchstart', 'mousedown'];
    var ups = window.PointerEvent ? ['pointerup', 'pointercancel', 'pointerleave'] :
      ['touchend', 'touchcancel', 'mouseup', 'mouseleave'];
    downs.forEach(function (type) { on(node, type, down); });
    ups.concat(['keyup', 'blur']).forEach(function (type) { on(node, type, up); });
    on(node, 'keydown', function (event) {
      if (event.key === ' ' || event.key === 'Enter') down(event);
    });
    on(node, 'contextmenu', function (event) { event.preventDefault(); });
  }

  function release(hold) {
    if (!hold.timer) return;
    clearInterval(hold.timer);
    hold.timer = null;
    hold.node.classList.remove('held');
    held.splice(held.indexOf(hold), 1);
    command('horn-release ' + hold.name);
  }

  function releaseHorns() { held.slice().forEach(release); }

  // MARK: - Last changes

  function loadChanges() {
    request('GET', '/api/changes', undefined, null, function (status, data) {
      if (status === 200 && data.length !== undefined) {
        changes = data.slice(-20);
        drawChanges();
      }
    });
  }

  function addChange(change) {
    var text = JSON.stringify(change);
    for (var i = 0; i < changes.length; i++) if (JSON.stringify(changes[i]) === text) return;
    changes.push(change);
    changes = changes.slice(-20);
    drawChanges();
  }

  function drawChanges() {
    var list = $('changes');
    list.textContent = '';
    changes.forEach(function (change) {
      var at = new Date(change.at_ms), item = make('li');
      item.appendChild(make('span', 'what', change.what));
      item.appendChild(make('span', 'by', change.by || ''));
      item.appendChild(make('time', 'at', pad2(at.getHours()) + ':' + pad2(at.getMinutes()) +
        ':' + pad2(at.getSeconds())));
      list.insertBefore(item, list.firstChild);  // the newest first
    });
  }

  /* A watch line: a horn sounding, an entry typed on the scoreboard's own keypad. */
  function onWatch(event) {
    var words = String(event.data).split(/\s+/), view = views[words[1]];
    var horn = words[0] === 'horn' && $('horns').querySelector('[data-horn="' + words[1] + '"]');
    if (horn) toggle(horn, 'sounding', words[2] === 'on');
    if (view && /^editing/.test(words[0])) toggle(view.section, 'keypad', words[0] === 'editing');
  }

  // MARK: - Start

  $('pair-name').value = remember('scoreboard-device') || 'phone';
  keyboard = remember('scoreboard-keyboard') === '1';
  on('fields', 'click', onFieldsClick);
  on('pad', 'click', onPadClick);
  on('keyboard-entry', 'input', onKeyboardInput);
  on(document, 'keydown', onKey);
  // A tap anywhere but on the pad, its message and the field being typed drops the entry.
  document.addEventListener('click', function (event) {
    if (edit && !inside(event.target, $('dock')) && !inside(event.target, edit.view.cells)) endEdit();
  }, true);
  on('pair-form', 'submit', pair);
  on('pair-later', 'click', function () { pairLater = true; showPairing(); });
  on('pair-show', 'click', function () { pairLater = false; showPairing(); });
  on('unpair', 'click', function () {
    request('POST', '/api/unpair', '', 'text/plain', unpaired);
  });
  on('board-controls', 'click', function (event) {
    var button = carrying(event.target, 'data-command', this);
    if (button) command(button.getAttribute('data-command'));
  });
  // Keeps the operator's screen on where the browser can (a secure context: localhost
  // or HTTPS); on the venue's plain HTTP the phone's own settings decide.
  var wakeLock = null;
  function keepAwake() {
    if (!navigator.wakeLock || document.hidden || wakeLock) return;
    navigator.wakeLock.request('screen').then(function (lock) {
      wakeLock = lock;
      lock.addEventListener('release', function () { wakeLock = null; });
    }, function () { /* refused: battery saver, or not allowed here */ });
  }
  on(document, 'visibilitychange', function () {
    if (document.hidden) releaseHorns(); else keepAwake();
  });
  keepAwake();
  on(window, 'pagehide', releaseHorns);
  on(window, 'blur', releaseHorns);

  var source = Scoreboard.follow(function (newLayout) {
    var text = JSON.stringify(newLayout);
    if (text === layoutText) return;
    layoutText = text;
    layout = newLayout;
    $('name').textContent = layout.name;
    document.title = layout.name + ' console';
    render();
  }, frame, function (now) {
    $('connection').hidden = now;
    if (now && !connected) {
      loadChanges();
      loadSession();
    }
    connected = now;
  });
  on(source, 'change', function (event) {
    try { addChange(JSON.parse(event.data)); } catch (e) { /* not a change */ }
  });
  on(source, 'watch', onWatch);
  loadSession();
  loadChanges();
})();
