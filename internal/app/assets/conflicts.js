// Typing in a conflict's Markdown chooses "Edit the block".
document.addEventListener("input", e => {
  var set = window.Quire.up(e, "fieldset.conflict");
  var edit = set && e.target.matches("textarea[data-markdown]") && set.querySelector("input[data-conflict-edit]");
  if (edit) edit.checked = true;
});
