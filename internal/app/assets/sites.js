// Condition fields (data-check) are checked as typed.
document.addEventListener("input", async e => {
  var f = e.target, u = f.dataset.check, v = f.value;
  if (!u) return;
  var m = (await (await fetch(u + encodeURIComponent(v))).json()).message;
  if (v != f.value) return;
  f.setCustomValidity(m);
  document.getElementById(f.id + "-check").textContent = m;
});
