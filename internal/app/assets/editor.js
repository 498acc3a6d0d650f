// The editor: blocks in place, Markdown mode with preview, autosave.
(function () {
"use strict";

var Q = window.Quire, el = Q.el, savers = [];

var post = (url, data) => Q.post(url, data, {"X-Quire-Editor": "1"});

async function answer(res) {
  var t = await res.text(), json;
  try { json = JSON.parse(t); } catch (e) { json = {html: t}; }
  return {res, json};
}

// Saver saves a text area a second after typing and on blur, one save at
// a time, retrying network failures with growing waits.
class Saver {
  constructor(area, status, send, saved, conflict) {
    Object.assign(this, {area, status, send, saved, conflict, original: area.value, saves: 0,
      dirty: false, busy: false, paused: false, timer: null, tries: 0, waiters: []});
    area.addEventListener("input", () => this.changed());
    area.addEventListener("blur", () => { if (this.dirty) this.flush(); });
    savers.push(this);
  }
  say(text) { this.status.textContent = text; }
  changed() {
    this.dirty = true;
    if (!this.paused && !this.busy) this.say("Unsaved changes");
    this.later(1000);
  }
  later(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), ms);
  }
  pending() { return this.dirty || this.busy; }
  whenSaved(fn) {
    if (!this.pending()) return fn();
    this.waiters.push(fn);
    this.flush();
  }
  // revert restores the text, saved if an autosave changed it.
  revert(fn) {
    this.dirty = this.saves > 0 && this.area.value !== this.original;
    this.area.value = this.original;
    this.whenSaved(fn);
  }
  async flush() {
    clearTimeout(this.timer);
    if (this.busy || this.paused || !this.dirty) return;
    var text = this.area.value, o;
    this.dirty = false; this.busy = true;
    this.say("Saving…");
    try { o = await answer(await this.send(text)); } catch (e) {}
    this.busy = false;
    if (!o) { this.dirty = true; return this.retry(); }
    var st = o.res.status;
    if (o.res.ok) {
      this.tries = 0;
      this.saved(o.json, text);
      if (this.dirty) return this.later(300);
      this.say("Saved");
      this.waiters.splice(0).forEach(fn => fn());
      return;
    }
    this.dirty = true;
    if (st === 409) {
      this.paused = true;
      this.say("Conflict");
      this.conflict(o.json, text);
    } else if (st >= 500 || st === 429 || st === 408) {
      this.retry();
    } else {
      this.paused = true;
      this.say("Not saved: " + (o.json.error || o.res.statusText));
    }
  }
  retry() {
    this.say("Not saved — retrying");
    this.later(Math.min(30000, 1000 * 2 ** this.tries++));
  }
  resume(saveNow) {
    this.paused = false;
    if (saveNow) { this.dirty = true; this.flush(); } else if (this.dirty) this.later(1000);
  }
  stop() {
    clearTimeout(this.timer);
    this.paused = true; this.dirty = false;
    if (savers.includes(this)) savers.splice(savers.indexOf(this), 1);
  }
}

window.addEventListener("beforeunload", e => {
  if (savers.some(s => s.pending())) { e.preventDefault(); e.returnValue = ""; }
});

function conflict(before, j, mine, keep, take, edit) {
  var box = el("section", {class: "edit-conflict", role: "alert"}, [
    el("h3", {}, j.gone ? "This block was removed meanwhile" : "Someone else changed this meanwhile"),
    el("p", {}, "Nothing was overwritten. Keep your version, take theirs, or edit yours and save it."),
    el("div", {class: "conflict-versions"}, [
      el("div", {}, [el("h4", {}, "Their version"),
        j.gone ? el("p", {class: "muted"}, "Removed.") : el("pre", {class: "conflict-text"}, j.theirs || "")]),
      el("div", {}, [el("h4", {}, "Your version"), el("pre", {class: "conflict-text"}, mine)])]),
    el("div", {class: "actions"}, [["Keep mine", keep], ["Take theirs", take], ["Edit mine", edit]].map(([label, fn]) => {
      var btn = el("button", {type: "button", class: "btn"}, label);
      btn.addEventListener("click", () => { box.remove(); fn(); });
      return btn;
    }))]);
  before.parentNode.insertBefore(box, before);
  box.querySelector("button").focus();
}

function keys(area, save, cancel) {
  area.setAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter Escape");
  area.addEventListener("keydown", e => {
    if (e.key === "Enter" && Q.mod(e)) { e.preventDefault(); save(); }
    else if (e.key === "Escape") { e.preventDefault(); cancel(); }
  });
}

var bar = document.querySelector("[data-edit-page]");
var page = bar && bar.dataset.editPage;
var target = page && page.replace(/\/pages\/[^/]+$/, "");
var seq = 0;
var blockURL = key => page + "/blocks/" + encodeURIComponent(key);

function markButtons(root) {
  root.querySelectorAll("a.block-edit").forEach(a => {
    a.setAttribute("role", "button");
    Q.expand(a, false);
  });
}

// BlockEditor edits the blocks els (key and base: the first's) or, with
// none, a new block after the block after, placed before at.
class BlockEditor {
  constructor(els, key, base, text, after, at) {
    var id = "block-editor-" + (++seq);
    Object.assign(this, {els, key, base, after});
    var area = el("textarea", {id, name: "markdown", class: "editor-text", rows: Math.min(20, Math.max(3, text.split("\n").length + 1)),
      "data-markdown": "", "data-upload": target + "/files", "data-convert": target + "/convert"});
    area.value = text;
    var button = (label, cls, fn) => {
      var b = el("button", {type: fn ? "button" : "submit", class: "btn" + cls}, label);
      if (fn) b.addEventListener("click", () => fn.call(this));
      return b;
    };
    var status = el("span", {class: "save-status", role: "status"});
    var form = el("form", {class: "block-editor", method: "post", action: key ? blockURL(key) : page + "/blocks"}, [
      el("label", {for: id, class: "visually-hidden"}, key ? "Markdown of the block" : "Markdown of the new block"), area,
      el("div", {class: "editor-bar"}, [button("Save", " btn-primary"), button("Cancel", "", this.cancel),
        button("Add block below", "", this.addBelow), button(key ? "Delete block" : "Discard block", " btn-danger", this.remove), status])]);
    Object.assign(this, {form, area, status});
    (els[0] || at).before(form);
    els.forEach(n => { n.hidden = true; });
    this.setExpanded(true);
    this.saver = new Saver(area, status, t => this.send(t), j => this.savedWith(j), (j, mine) => this.conflicted(j, mine));
    form.addEventListener("submit", e => { e.preventDefault(); this.done(); });
    keys(area, () => this.done(), () => this.cancel());
    area.focus();
  }
  setExpanded(v) {
    this.els.forEach(n => {
      var a = n.querySelector("a.block-edit");
      if (a) Q.expand(a, v);
    });
  }
  send(text) {
    if (this.key) return post(blockURL(this.key), {markdown: text, base: this.base, blocks: this.els.length});
    if (!text.trim()) return Promise.resolve(new Response("{}", {status: 200}));
    return post(page + "/blocks", {after: this.after, markdown: text});
  }
  savedWith(j) {
    if (!j.keys) return;
    this.saver.saves++;
    var t = document.createElement("template");
    t.innerHTML = j.html || "";
    var fresh = Array.from(t.content.children), anchor = this.els.length ? this.els[0] : this.form.nextSibling;
    fresh.forEach(n => { n.hidden = true; this.form.parentNode.insertBefore(n, anchor); markButtons(n); });
    this.drop();
    this.els = fresh;
    this.key = j.keys[0]; this.base = j.base;
    this.form.action = blockURL(this.key);
    this.setExpanded(true);
  }
  drop() {
    this.els.forEach(n => n.remove());
    this.els = [];
  }
  conflicted(j, mine) {
    var s = this.saver;
    // Mine, as a new block if theirs is gone.
    var mineWins = () => {
      if (j.gone) { this.key = ""; this.drop(); this.after = this.previousKey(); } else this.base = j.base;
    };
    conflict(this.area, j, mine, () => { mineWins(); s.resume(true); }, () => {
      if (j.gone) { s.stop(); this.drop(); this.close(); return; }
      this.base = j.base; this.area.value = s.original = j.theirs;
      s.resume(true);
    }, () => { mineWins(); s.resume(false); this.area.focus(); });
  }
  previousKey() {
    for (var n = this.form.previousElementSibling; n; n = n.previousElementSibling) {
      if (n.dataset.block) return n.dataset.block;
    }
    return "";
  }
  done() { this.saver.whenSaved(() => this.close()); }
  cancel() { this.saver.revert(() => this.close()); }
  close() {
    var focus = this.els[0] && this.els[0].querySelector("a.block-edit");
    this.saver.stop();
    this.setExpanded(false);
    this.els.forEach(n => { n.hidden = false; });
    this.form.remove();
    if (focus) focus.focus();
  }
  addBelow() {
    this.saver.whenSaved(() => {
      var last = this.els[this.els.length - 1], parent = this.form.parentNode;
      var next = last ? last.nextSibling : this.form.nextSibling;
      this.close();
      newBlock(parent, next, last ? last.dataset.block : this.after);
    });
  }
  async remove() {
    this.saver.stop();
    if (!this.key) return this.form.remove();
    this.status.textContent = "Deleting…";
    try {
      var o = await answer(await post(blockURL(this.key) + "/delete", {base: this.base, blocks: this.els.length}));
    } catch (e) {
      this.status.textContent = "Not deleted: the network failed; try again";
      return;
    }
    if (o.res.ok) { this.drop(); this.form.remove(); return; }
    this.status.textContent = o.res.status === 409 ? "Conflict: the block changed meanwhile; reload to see it" : "Not deleted: " + (o.json.error || o.res.statusText);
  }
}

function newBlock(parent, next, after) {
  new BlockEditor([], "", "", "", after, parent.insertBefore(document.createTextNode(""), next));
}

async function openBlock(link) {
  var block = link.closest(".block"), o;
  if (!block || block.hidden) return;
  try {
    o = await answer(await fetch(link.href, {headers: {"X-Quire-Editor": "1", "Accept": "application/json"}}));
  } catch (e) {}
  if (!o || !o.res.ok) { location.href = link.href; return; }
  var els = [block];
  for (var i = 1, n = block.nextElementSibling; i < o.json.blocks && n; i++, n = n.nextElementSibling) els.push(n);
  new BlockEditor(els, block.dataset.block, o.json.base, o.json.markdown, "", null);
}

if (page) {
  markButtons(document);
  document.addEventListener("quire:updated", e => markButtons(e.detail));
  document.addEventListener("click", e => {
    var a = Q.up(e, "a.block-edit, a[data-add-block]");
    if (!a || Q.mod(e) || e.shiftKey) return;
    e.preventDefault();
    if (!a.hasAttribute("data-add-block")) return openBlock(a);
    var body = document.querySelector("main article .body");
    if (!body) return;
    var blocks = body.querySelectorAll(":scope > .block"), last = blocks[blocks.length - 1];
    newBlock(body, null, last ? last.dataset.block : "");
  });
}

// Markdown mode: the preview follows the text, which saves itself.
var mform = document.querySelector("form[data-markdown-form]");
if (mform) {
  var area = mform.querySelector("textarea[name=markdown]");
  var baseIn = mform.querySelector("input[name=base]");
  var leave = mform.querySelector("a[data-page-url]");
  var asked = 0, shown = 0;
  var refresh = async () => {
    var n = ++asked;
    try {
      var res = await post(mform.dataset.preview, {markdown: area.value}), html = res.ok && await res.text();
      if (html !== false && n >= shown) { shown = n; mform.querySelector(".preview-body").innerHTML = html; }
    } catch (e) {}
  };
  area.addEventListener("input", Q.debounce(refresh, 250));
  var saver = new Saver(area, mform.querySelector(".save-status"), t => post(mform.action, {markdown: t, base: baseIn.value}),
    j => { if (j.base) { baseIn.value = j.base; saver.saves++; } },
    (j, mine) => {
      baseIn.value = j.base;
      conflict(mform.firstChild, j, mine, () => saver.resume(true), () => {
        area.value = saver.original = j.theirs; saver.dirty = false; saver.resume(false);
        saver.say("Saved"); refresh();
      }, () => { saver.resume(false); area.focus(); });
    });
  var finish = () => saver.whenSaved(() => { saver.stop(); location.href = leave.href; });
  mform.addEventListener("submit", e => {
    e.preventDefault();
    if (e.submitter && e.submitter.hasAttribute("formaction")) refresh(); else finish();
  });
  leave.addEventListener("click", e => { e.preventDefault(); saver.revert(finish); });
  keys(area, finish, () => saver.revert(finish));
}
})();
