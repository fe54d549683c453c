// The name and account panel of the start page (docs/web.md, "Names and accounts"):
// a guest picks a display name at once; a named guest can make an account (a password)
// and keep its games; anyone can sign in with a name and password (another browser
// then uses the account's player id); a signed-in player can change the password or
// sign out.  The sign-in itself is an HttpOnly cookie the page never sees.

import { ApiError, changePassword, ensurePlayer, forgetPlayer, forgetSeats, getMe, setName, signIn, signOut, signUp, usePlayer } from "./api.js";
import { t } from "./i18n.js";
import { el, errorText, showMessage } from "./ui.js";

/** @typedef {import("./protocol").Me} Me */
/** @typedef {{ [field: string]: string }} Fields */

/** @param {unknown} err */
function fail(err) {
  const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
  showMessage(errorText(e.code, e.reason, e), "error");
}

/**
 * @param {string} name
 * @param {string} label
 * @param {string} [type]
 * @param {{ [attr: string]: string }} [extra]
 */
function field(name, label, type = "text", extra = {}) {
  // The label wraps its box (no id: the panel holds several forms with the same fields,
  // and an id repeated made "Navn" in "Log ind" focus another form's box).
  return el("label", { class: "account-field" }, el("span", { text: label }),
    el("input", { name, type, required: true, ...extra }));
}

/**
 * A form whose submit calls `action` with the fields' values; a refusal is shown.
 * @param {string} cls
 * @param {HTMLElement[]} fields
 * @param {string} submit
 * @param {(values: Fields) => Promise<void>} action
 */
function form(cls, fields, submit, action) {
  const button = el("button", { type: "submit", class: "primary", text: submit });
  const f = el("form", { class: `account-form ${cls}` }, ...fields, button);
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    button.disabled = true;
    /** @type {Fields} */
    const values = {};
    for (const [k, v] of new FormData(f).entries()) values[k] = String(v);
    try {
      await action(values);
    } catch (err) {
      fail(err);
    } finally {
      button.disabled = false;
    }
  });
  return f;
}

/** @param {string} label */
const nameInput = (label) => field("name", label, "text", { autocomplete: "username", maxlength: "40" });
/** @param {string} name @param {string} label @param {string} autocomplete */
const passwordInput = (name, label, autocomplete) =>
  field(name, label, "password", { autocomplete, maxlength: "200" });

/** @param {string} summary @param {...HTMLElement} content */
function fold(summary, ...content) {
  return el("details", { class: "account-more" }, el("summary", { text: summary }), ...content);
}

/** @param {string} label */
function nameForm(label) {
  return form("name-form", [nameInput(label)], t("account.save_name"), async ({ name }) => {
    const who = await setName(name);
    showMessage(t("account.name_saved", { name: who.name || "" }), "ok");
    render(who);
  });
}

function signInForm() {
  return form("sign-in-form", [nameInput(t("account.name")),
    passwordInput("password", t("account.password"), "current-password")],
  t("account.sign_in"), async ({ name, password }) => {
    const who = await signIn(name, password);
    usePlayer(who.player_id);
    location.reload();
  });
}

/** @param {Me} me */
function signUpForm(me) {
  const fields = [passwordInput("password", t("account.new_password"), "new-password")];
  if (!me.name) fields.unshift(nameInput(t("account.name")));
  return form("sign-up-form", fields, t("account.sign_up"), async ({ name, password }) => {
    const who = await signUp(name || null, password);
    usePlayer(who.player_id);
    showMessage(t("account.signed_up", { name: who.name || "" }), "ok");
    render(who);
  });
}

function passwordForm() {
  return form("password-form", [passwordInput("old_password", t("account.old_password"), "current-password"),
    passwordInput("new_password", t("account.new_password"), "new-password")],
  t("account.change_password"), async (values) => {
    await changePassword(values.old_password, values.new_password);
    showMessage(t("account.password_changed"), "ok");
    render(await getMe());
  });
}

async function leave() {
  try {
    await signOut();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) {
      fail(err);
      return;
    }
  }
  forgetPlayer();
  forgetSeats();
  location.reload();
}

/** @param {Me} me */
function render(me) {
  const box = document.getElementById("account");
  if (!box) return;
  box.innerHTML = "";
  box.dataset.account = me.account ? "1" : "0";
  const line = me.account
    ? t("account.signed_in_as", { name: me.name || "" })
    : me.name ? t("account.guest_named", { name: me.name }) : t("account.guest");
  box.append(el("p", { class: "account-line", id: "account-line", text: line }));
  if (!me.name) box.append(nameForm(t("account.pick_name")));
  const extra = el("div", { class: "account-actions" });
  if (me.account) {
    const out = el("button", { type: "button", id: "sign-out", text: t("account.sign_out") });
    out.addEventListener("click", leave);
    extra.append(fold(t("account.rename"), nameForm(t("account.new_name"))),
      fold(t("account.change_password"), passwordForm()), out);
  } else {
    if (me.name) extra.append(fold(t("account.rename"), nameForm(t("account.new_name"))));
    extra.append(fold(t("account.sign_up"), el("p", { class: "hint", text: t("account.sign_up_why") }), signUpForm(me)),
      fold(t("account.sign_in"), signInForm()));
  }
  box.append(extra);
}

// Show who plays here; an ended or expired sign-in is said once and the page goes on
// as a new guest.
export async function renderAccount() {
  await ensurePlayer();
  let me;
  try {
    me = await getMe();
  } catch (err) {
    fail(err);
    if (!(err instanceof ApiError) || err.status !== 401) return;
    forgetPlayer();
    forgetSeats(); // the ended sign-in's seats answer to no one here any more
    await ensurePlayer();
    me = await getMe();
  }
  render(me);
}
