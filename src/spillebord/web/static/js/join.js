// @ts-nocheck -- issue 21: JSDoc types for this module are being added; remove this line then
// The invite page (/join/{code}): shows the deal's seal (the commitment, before the seat
// is taken), claims the seat through the API, keeps the token and goes to the game.  A broken, used or expired invite explains itself in the catalogue's
// words (error.bad_invite, error.invite_used, error.match_over) with the server's reason.

import { claimInvite, ensurePlayer, getInvite, rememberMatch, saveToken } from "./api.js";
import { t } from "./i18n.js";
import { errorText, initPage, showMessage } from "./ui.js";

async function main() {
  await initPage();
  const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const status = document.getElementById("status");
  try {
    await ensurePlayer();
    const invite = await getInvite(code);
    if (invite.commitment) {
      const seal = document.getElementById("seal");
      seal.querySelector("code").textContent = invite.commitment;
      seal.hidden = false;
    }
    const res = await claimInvite(code);
    saveToken(res.match_id, res.token);
    rememberMatch({ match_id: res.match_id, game: null });
    status.textContent = t("join.ok");
    location.replace(`/play/${res.match_id}`);
  } catch (err) {
    status.textContent = t("join.failed");
    showMessage(errorText(err.code || "unknown", err.reason, err), "error");
    document.getElementById("after").hidden = false;
  }
}

main();
