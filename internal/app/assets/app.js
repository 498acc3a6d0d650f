// The app's enhancements; every page works without them.
(function () {
  "use strict";

  // "/" or Ctrl+K (⌘K) anywhere but a text field opens search.
  document.addEventListener("keydown", function (e) {
    var search = document.getElementById("search-input");
    if (!search) return;
    var t = e.target;
    var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if ((e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) ||
        (e.key === "k" && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      search.focus();
      search.select();
    }
  });

  // A form marked data-confirm asks before it is sent.
  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) e.preventDefault();
  });

  // A button marked data-copy-text copies its text to the clipboard.
  document.querySelectorAll("[data-copy-text]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      if (!navigator.clipboard) return;
      navigator.clipboard.writeText(btn.getAttribute("data-copy-text")).then(function () {
        var label = btn.textContent;
        btn.textContent = "Copied";
        setTimeout(function () { btn.textContent = label; }, 1500);
      });
    });
  });
})();
