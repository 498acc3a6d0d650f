// Site customization: the preview follows the form.
(() => {
const b = document.querySelector("[data-preview]"), f = b && b.form;
let t;
if (f) f.oninput = () => {
  clearTimeout(t);
  t = setTimeout(() => f.requestSubmit(b), 400);
};
})();
