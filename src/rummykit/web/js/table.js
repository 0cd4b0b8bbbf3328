// The table page: the websocket connection (with reconnect), the waiting room, the seats,
// and the variant's own panel, loaded as a separate module from ./variants/.
import { api, clear, confirmDialog, fill, getToken, h, playerName, setToken, setTopbar, toast } from "./api.js";

const PROTOCOL_VERSION = 1;

// Each variant's panel is its own module.
const PANELS = {
  gin: () => import("./variants/gin.js"),
  rami: () => import("./variants/rami.js"),
  carousel: () => import("./variants/carousel.js"),
};

// Replies that answer a request by its id (an error answers any of them).
const REPLY_TYPES = new Set(["ack", "checked", "hint"]);

const ERROR_WORDS = {
  bad_token: "This invite link is not valid for this table.",
  rate_limited: "You are sending moves too quickly; wait a moment.",
  too_large: "That message was too large for the server.",
  not_found: "There is no such table.",
};

const RULE_ID = /^[a-z]+-\d+(\.\d+)?$/;

// A refusal's text with the rule it cites linked to its rules page (a new tab): the
// "§gin-3.5" the text names becomes the link, or "see §gin-3.5" is added.
function citingRule(text, ruleId) {
  if (!RULE_ID.test(ruleId)) return text;
  const game = ruleId.split("-")[0];
  const link = h("a", { href: `/rules/${game}#${ruleId}`, target: "_blank", rel: "noopener", class: "rule-link", "data-testid": "rule-link" }, `§${ruleId}`);
  const cited = `§${ruleId}`;
  const at = text.indexOf(cited);
  if (at >= 0) return [text.slice(0, at), link, text.slice(at + cited.length)];
  return [text, " (see ", link, ")"];
}

class Connection {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.nextId = 1;
    this.pending = new Map();
    this.retry = 0;
    this.closedByUs = false;
    this.fatal = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    this.handlers.state(this.retry ? "reconnecting" : "connecting");
    socket.addEventListener("open", () => {
      const hello = { type: "hello", v: PROTOCOL_VERSION };
      if (this.token) { hello.token = this.token; if (playerName()) hello.name = playerName(); }
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.type === "welcome") { this.retry = 0; this.handlers.state("connected"); }
      if ((REPLY_TYPES.has(message.type) || message.type === "error") && message.id != null && this.pending.has(message.id)) {
        const { resolve, reject } = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === "error") reject(message); else resolve(message);
      }
      if (message.type === "error" && ["bad_token", "not_found", "unsupported_version"].includes(message.code)) this.fatal = true;
      this.handlers.message(message);
    });
    socket.addEventListener("close", () => {
      for (const { reject } of this.pending.values()) reject({ code: "disconnected", message: "The connection was lost; the move may not have been sent." });
      this.pending.clear();
      if (this.closedByUs || this.fatal) { this.handlers.state("closed"); return; }
      this.retry += 1;
      this.handlers.state("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** Math.min(this.retry, 5));
      setTimeout(() => { if (!this.closedByUs) this.open(); }, delay);
    });
  }

  /** Send a request; resolves with its ack, rejects with the server's error message. */
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject({ code: "disconnected", message: "Not connected to the server; reconnecting…" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  close() { this.closedByUs = true; if (this.socket) this.socket.close(); }
}

function seatsBar(seats, mySeat, current) {
  return h("div", { class: "seats-bar", "data-testid": "seats" }, seats.map((s) => {
    const status = s.kind === "bot" ? `${s.level} bot`
      : s.standin ? "away (stand-in bot)"
      : s.away_for != null ? "disconnected"
      : s.connected ? "online" : (s.joined ? "offline" : "not joined");
    return h("span", {
      class: `seat-chip ${s.seat === mySeat ? "me" : ""} ${s.seat === current ? "to-act" : ""}`,
      "data-seat": s.seat,
    }, h("b", {}, s.name + (s.seat === mySeat ? " (you)" : "")), h("small", {}, status));
  }));
}

export function showTable(root, tableId) {
  const token = getToken(tableId);
  clear(root);
  setTopbar(`Table ${tableId}`);
  const page = h("div", { class: "table-page" });
  const seatsBox = h("div", { class: "seats-box-top" });
  const body = h("div", { class: "table-body" });
  page.append(seatsBox, body);
  root.appendChild(page);
  const indicator = document.getElementById("connection");
  const state = { info: null, view: null, seat: null, panel: null, panelVariant: null, role: null };

  const conn = new Connection(tableId, token, {
    state: (s) => {
      indicator.dataset.state = s;
      indicator.textContent = { connecting: "connecting…", connected: "online", reconnecting: "reconnecting…", closed: "offline" }[s] || "";
    },
    message: (m) => onMessage(m),
  });

  const ctx = {
    tableId,
    get seat() { return state.seat; },
    get info() { return state.info; },
    seatName: (i) => (state.info && state.info.seats[i] ? state.info.seats[i].name : `Seat ${i + 1}`),
    act: (action) => conn.request({ type: "act", action }).catch((error) => { showError(error); throw error; }),
    // Ask the engine about an action without playing it: {ok, error, ...details}.
    check: (action) => conn.request({ type: "check", action }),
    // The solver's advice for this seat.
    hint: () => conn.request({ type: "hint" }).then((reply) => reply.hint),
    showError: (error) => showError(error),
    confirm: confirmDialog,
    toast,
    rematch: async () => {
      try {
        const ack = await conn.request({ type: "rematch" });
        goToRematch(ack.table_id);
      } catch (error) { showError(error); }
    },
  };

  function showError(error) {
    const text = (error && (ERROR_WORDS[error.code] && error.code !== "illegal_action" ? ERROR_WORDS[error.code] : error.message)) || "Something went wrong.";
    toast(error && error.rule_id ? citingRule(text, error.rule_id) : text);
  }

  function goToRematch(newId) {
    if (token) setToken(newId, token);
    conn.close();
    location.assign(`/t/${newId}`);
  }

  function renderSeats() {
    if (!state.info) return;
    clear(seatsBox).appendChild(seatsBar(state.info.seats, state.seat, state.view ? state.view.current_player : null));
  }

  function renderWaiting() {
    const info = state.info;
    const invites = JSON.parse(sessionStorage.getItem(`rummykit:invites:${tableId}`) || "[]");
    const missing = info.seats.filter((s) => s.kind === "human" && !s.joined);
    const box = h("div", { class: "card-panel waiting", "data-testid": "waiting" },
      h("h2", {}, `${info.title}: waiting to start`),
      h("p", {}, `Rules: ${info.preset} `, h("a", { href: `/rules/${info.variant}`, target: "_blank", rel: "noopener" }, "(read them)")),
      invites.filter((i) => i.seat !== state.seat).length
        ? h("div", {}, h("p", {}, "Send each player their own invite link:"),
          invites.filter((i) => i.seat !== state.seat).map((i) => h("p", { class: "invite" },
            h("span", {}, `Seat ${i.seat + 1}: `), h("input", { readonly: true, value: i.url, onclick: (e) => e.target.select() }))))
        : null,
      missing.length ? h("p", { class: "muted" }, `Waiting for ${missing.map((s) => s.name).join(", ")} to join.`) : null,
      state.seat != null
        ? h("button", {
          class: "primary", "data-testid": "start", disabled: missing.length > 0,
          onclick: async (e) => { e.target.disabled = true; try { await conn.request({ type: "start" }); } catch (error) { showError(error); e.target.disabled = false; } },
        }, "Start the game")
        : h("p", { class: "muted" }, "You are watching this table."));
    clear(body).appendChild(box);
  }

  async function ensurePanel() {
    const variant = state.info.variant;
    if (state.panel && state.panelVariant === variant) return state.panel;
    const load = PANELS[variant];
    if (!load) { clear(body).appendChild(h("p", { class: "error-text" }, `This browser table cannot show ${variant} yet.`)); return null; }
    const module = await load();
    clear(body);
    state.panel = module.createPanel(body, ctx);
    state.panelVariant = variant;
    return state.panel;
  }

  let chain = Promise.resolve();
  function onMessage(message) {
    // Messages are handled strictly in order (panels animate between updates).
    chain = chain.then(() => handle(message)).catch((error) => console.error(error));
  }

  async function handle(message) {
    switch (message.type) {
      case "welcome":
      case "snapshot": {
        state.info = message.table;
        state.seat = message.seat;
        state.view = message.view;
        if (message.type === "welcome") state.role = message.role;
        setTopbar(`${message.table.title} · table ${tableId}${state.role === "spectator" ? " · watching" : ""}`);
        renderSeats();
        if (state.info.status === "waiting") { state.panel = null; renderWaiting(); return; }
        const panel = await ensurePanel();
        if (panel) panel.snapshot(message.view, state.info);
        return;
      }
      case "update": {
        if (!state.info) return;
        state.info.status = message.status;
        state.info.seq = message.seq;
        state.view = message.view;
        renderSeats();
        const panel = await ensurePanel();
        if (panel) await panel.update(message, state.info);
        return;
      }
      case "seats":
        if (state.info) { state.info.seats = message.seats; renderSeats(); if (state.info.status === "waiting") renderWaiting(); }
        return;
      case "started":
        toast("The game has started.", "info");
        return;
      case "rematch":
        if (state.seat == null) { location.assign(`/t/${message.table_id}`); return; }
        if (message.by !== state.seat && await confirmDialog(`${ctx.seatName(message.by)} wants a rematch. Join the new table?`, { yes: "Join" })) {
          goToRematch(message.table_id);
        }
        return;
      case "error":
        if (message.id == null) showError(message);
        return;
      default:
    }
  }
}
