// Conflicts page: typing in a block's Markdown chooses "Edit the block"
// for that conflict, so an edit is never silently dropped.
(function () {
  "use strict";
  document.querySelectorAll("fieldset.conflict").forEach(function (set) {
    var area = set.querySelector("textarea[data-markdown]");
    var edit = set.querySelector("input[data-conflict-edit]");
    if (!area || !edit) {
      return;
    }
    area.addEventListener("input", function () {
      edit.checked = true;
    });
  });
})();
