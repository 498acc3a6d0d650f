// A condition field (data-check) is checked as it is typed, as saving
// checks it.
document.addEventListener("input", async e => {
  var f = e.target, u = f.dataset && f.dataset.check, v = f.value;
  if (!u) return;
  var m = (await (await fetch(u + "?condition=" + encodeURIComponent(v))).json()).message;
  if (v != f.value) return;
  f.setCustomValidity(m);
  document.getElementById(f.id + "-check").textContent = m;
});
