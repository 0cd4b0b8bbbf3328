// Small helpers shared by every page: REST calls, tokens, toasts, dialogs, DOM building.
import { t } from "./i18n.js";
import { errorText } from "./refusals.js";

/** Call the REST API; throws an Error whose message is the server's refusal in the
 * reader's language (from its code; `code` and `params` kept on the error). */
export async function api(path, { method = "GET", body = undefined, token = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new Error(t("error.unreachable"));
  }
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok) {
    const message = (data && (data.message || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail)))
      || t("error.http_status", { status: response.status });
    const error = new Error(data && data.code ? errorText({ ...data, message }) : message);
    error.code = data && data.code;
    throw error;
  }
  return data;
}

/** Create an element: h("div", {class: "x", onclick: fn}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

/** Replace a node's children (null, undefined and false children are skipped). */
export function fill(node, ...children) {
  clear(node);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/** Show a message for a few seconds (errors stay longer). */
export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, "data-testid": `toast-${kind}` }, message);
  box.appendChild(item);
  setTimeout(() => item.classList.add("leaving"), kind === "error" ? 6000 : 2500);
  setTimeout(() => item.remove(), kind === "error" ? 6600 : 3000);
}

/** A modal confirmation; resolves true or false. */
export function confirmDialog(text, { yes = t("common.yes"), no = t("common.cancel") } = {}) {
  return new Promise((resolve) => {
    const close = (answer) => { overlay.remove(); document.removeEventListener("keydown", onKey); resolve(answer); };
    const onKey = (event) => { if (event.key === "Escape") close(false); };
    const overlay = h("div", { class: "overlay", "data-testid": "confirm" },
      h("div", { class: "dialog", role: "dialog", "aria-modal": "true" },
        h("p", { class: "dialog-text" }, text),
        h("div", { class: "dialog-buttons" },
          h("button", { class: "secondary", "data-testid": "confirm-no", onclick: () => close(false) }, no),
          h("button", { class: "primary", "data-testid": "confirm-yes", onclick: () => close(true) }, yes))));
    document.body.appendChild(overlay);
    document.addEventListener("keydown", onKey);
    overlay.querySelector(".primary").focus();
  });
}

export function tokenKey(tableId) { return `rummykit:token:${tableId}`; }
export function getToken(tableId) { return localStorage.getItem(tokenKey(tableId)); }
export function setToken(tableId, token) { localStorage.setItem(tokenKey(tableId), token); }
export function playerName() { return localStorage.getItem("rummykit:name") || ""; }
export function setPlayerName(name) { localStorage.setItem("rummykit:name", name); }

export function setTopbar(text) { document.getElementById("topbar-info").textContent = text; }
