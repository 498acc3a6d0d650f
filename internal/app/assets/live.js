// Live updates: an element with a data-live attribute names the event
// stream of its page; the header's inbox link names the inbox's. The
// inbox stream sends the unread count, shown in the header and in the
// link's accessible name.
(function () {
  'use strict';
  if (!window.EventSource) return;
  var link = document.querySelector('.inbox-link[data-live]');
  if (!link) return;
  var box = link.querySelector('[data-inbox-count]');
  var value = link.querySelector('[data-inbox-count-value]');
  var source = new EventSource(link.getAttribute('data-live'));
  source.addEventListener('unread', function (e) {
    var n = parseInt(e.data, 10);
    if (isNaN(n) || !box || !value) return;
    value.textContent = String(n);
    box.hidden = n === 0;
    link.setAttribute('aria-label', n === 0 ? 'Inbox' : 'Inbox, ' + n + ' unread');
  });
  window.addEventListener('pagehide', function () { source.close(); });
})();
