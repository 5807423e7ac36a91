// Voice Router console: the only script. It adds a working "Copy" button to one-time secrets and
// invitation links; without it the text stays selectable and can be copied by hand.
(function () {
  'use strict';
  function selectText(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
  }
  function report(button, text) {
    var status = document.getElementById(button.getAttribute('data-status') || '');
    if (status) status.textContent = text;
  }
  document.addEventListener('click', function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('button[data-copy]') : null;
    if (!button) return;
    event.preventDefault();
    var input = document.getElementById(button.getAttribute('data-copy'));
    if (!input) return;
    var fallback = function () {
      selectText(input);
      var copied = false;
      try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
      report(button, copied ? 'Copied.' : 'Selected: press Ctrl+C (⌘C) to copy.');
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { report(button, 'Copied.'); }, fallback);
    } else {
      fallback();
    }
  });
  // Copy buttons are useless without this script, so they start hidden and appear here.
  var buttons = document.querySelectorAll('button[data-copy][hidden]');
  for (var index = 0; index < buttons.length; index++) buttons[index].hidden = false;
})();
