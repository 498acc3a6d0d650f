// Conflicts page: typing in a block's Markdown chooses "Edit the block"
// for that conflict, so an edit is never silently dropped.
document.addEventListener("input", e => {
  var set = window.Quire.up(e, "fieldset.conflict");
  var edit = set && e.target.matches("textarea[data-markdown]") && set.querySelector("input[data-conflict-edit]");
  if (edit) edit.checked = true;
});
