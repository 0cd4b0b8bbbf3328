// Entry point: choose the language, then route by path. "/" lobby, "/t/ID" a table,
// "/replay/ID" a finished game.
import { h, setToken } from "./api.js";
import { chosenLanguage, languagePicker, loadLanguages, useLanguage } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";

function route() {
  const path = location.pathname;
  const root = document.getElementById("app");
  let match = path.match(/^\/t\/([A-Za-z0-9_-]{1,32})\/?$/);
  if (match) {
    const tableId = match[1];
    // An invite link carries the seat token in the fragment (never sent to the server in
    // a URL): keep it for this table, then take it out of the address bar.
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get("token")) {
      setToken(tableId, fragment.get("token"));
      history.replaceState(null, "", location.pathname);
    }
    showTable(root, tableId);
    return;
  }
  match = path.match(/^\/replay\/([A-Za-z0-9_-]{1,32})\/?$/);
  if (match) { showReplay(root, match[1]); return; }
  showLobby(root);
}

async function start() {
  await loadLanguages();
  await useLanguage(chosenLanguage());
  document.getElementById("language").appendChild(languagePicker(h));
  route();
}

start();
