// The page for an unknown address (the server answers a browser's request for a page
// that does not exist with this file and status 404; API paths keep their JSON).

import { t } from "./i18n.js";
import { initPage } from "./ui.js";

async function main() {
  await initPage();
  document.title = `${t("notfound.title")} — ${t("app.name")}`;
  document.body.dataset.ready = "1";
}

main();
