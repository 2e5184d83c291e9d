/* The board page: every field with its label, in seven-segment digits. */
(function () {
  'use strict';
  var digits = {};
  var container = document.getElementById('fields');
  Scoreboard.follow(function (layout) {
    document.getElementById('name').textContent = layout.name;
    document.title = layout.name;
    container.textContent = '';
    digits = {};
    layout.fields.forEach(function (field) {
      var box = document.createElement('section');
      box.className = 'field ' + field.kind;
      box.setAttribute('data-field', field.name);
      var label = document.createElement('h2');
      label.textContent = field.label;
      box.appendChild(label);
      digits[field.name] = Scoreboard.makeDigits(field.digits);
      box.appendChild(digits[field.name].element);
      container.appendChild(box);
    });
  }, function (texts, state) {
    Object.keys(texts).forEach(function (name) {
      if (digits[name]) digits[name].show(state.blank ? '' : texts[name]);
      var box = container.querySelector('[data-field="' + name + '"]');
      if (box) box.setAttribute('data-shown', texts[name]);
    });
  }, function (connected) {
    document.getElementById('connection').hidden = connected;
  });
})();
