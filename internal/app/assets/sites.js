// Sites: conditions (data-check) checked as typed; the preview follows.
document.addEventListener("input", async e => {
  var f = e.target, u = f.dataset.check, v = f.value;
  if (!u) return;
  var m = (await (await fetch(u + encodeURIComponent(v))).json()).message;
  if (v != f.value) return;
  f.setCustomValidity(m);
  document.getElementById(f.id + "-check").textContent = m;
});
(b => { if (b && b.form) b.form.oninput = window.Quire.debounce(() => b.form.requestSubmit(b), 400); })(document.querySelector("[data-preview]"));
