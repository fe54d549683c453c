// The page a browser gets while the server is still starting (server/warmup.py answers
// every page with this file and status 503 until the games are loaded): it shows how
// far the start-up has come and opens the page that was asked for as soon as it can.

import { t } from "./i18n.js";
import { initPage } from "./ui.js";

const POLL_MS = 1000;

/** One look: the start-up's progress, and whether the asked-for page answers now. */
async function look() {
  try {
    const ready = await fetch("/readyz", { cache: "no-store" });
    const body = await ready.json();
    const w = body.warming;
    const bar = /** @type {HTMLProgressElement} */ (document.getElementById("warming-progress"));
    const count = /** @type {HTMLElement} */ (document.getElementById("warming-count"));
    if (w && w.of > 0) {
      bar.max = w.of;
      bar.value = w.done;
      count.textContent = t("warming.progress", { done: w.done, of: w.of });
    }
    const page = await fetch(location.href, { cache: "no-store", headers: { accept: "text/html" } });
    if (page.status !== 503) {
      location.reload();
      return;
    }
  } catch {
    // the server is restarting or not listening yet: look again
  }
  setTimeout(look, POLL_MS);
}

async function main() {
  await initPage();
  document.title = `${t("warming.title")} — ${t("app.name")}`;
  document.body.dataset.ready = "1";
  look();
}

main();
