// The invite page (/join/{code}): shows the deal's seal (the commitment, before the seat
// is taken), claims the seat through the API, keeps the token and goes to the game.  A broken, used or expired invite explains itself in the catalogue's
// words (error.bad_invite, error.invite_used, error.match_over) with the server's reason.

import { ApiError, claimInvite, ensurePlayer, getInvite, rememberMatch, saveToken } from "./api.js";
import { t } from "./i18n.js";
import { errorText, initPage, showMessage } from "./ui.js";

async function main() {
  await initPage();
  const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const status = /** @type {HTMLElement} */ (document.getElementById("status"));
  try {
    await ensurePlayer();
    const invite = await getInvite(code);
    if (invite.commitment) {
      const seal = /** @type {HTMLElement} */ (document.getElementById("seal"));
      /** @type {HTMLElement} */ (seal.querySelector("code")).textContent = invite.commitment;
      seal.hidden = false;
    }
    const res = await claimInvite(code);
    saveToken(res.match_id, res.token);
    rememberMatch({ match_id: res.match_id, game: null });
    status.textContent = t("join.ok");
    location.replace(`/play/${res.match_id}`);
  } catch (err) {
    status.textContent = t("join.failed");
    const e = err instanceof ApiError ? err : new ApiError(0, "unknown", String(err));
    showMessage(errorText(e.code, e.reason, e), "error");
    /** @type {HTMLElement} */ (document.getElementById("after")).hidden = false;
  }
}

main();
