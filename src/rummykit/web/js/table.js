// The table page: the websocket connection (with reconnect), the waiting room, the seats,
// and the variant's own panel, loaded as a separate module from ./variants/.
import { clear, confirmDialog, getToken, h, playerName, setToken, setTopbar, toast } from "./api.js";
import { listOf, t, withLanguage } from "./i18n.js";
import { botLevel, gameTitle, presetLabel, seatName } from "./names.js";
import { refusalNodes } from "./refusals.js";

const PROTOCOL_VERSION = 1;

// Each variant's panel is its own module.
const PANELS = {
  gin: () => import("./variants/gin.js"),
  rami: () => import("./variants/rami.js"),
  carousel: () => import("./variants/carousel.js"),
};

// Replies that answer a request by its id (an error answers any of them).
const REPLY_TYPES = new Set(["ack", "checked", "hint"]);

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
      for (const { reject } of this.pending.values()) reject({ code: "disconnected", message: t("error.disconnected") });
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
        reject({ code: "not_connected", message: t("error.not_connected") });
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
    const status = s.kind === "bot" ? botLevel(s.level)
      : s.standin ? t("seat.standin")
      : s.away_for != null ? t("seat.disconnected")
      : s.connected ? t("seat.online") : (s.joined ? t("seat.offline") : t("seat.not_joined"));
    return h("span", {
      class: `seat-chip ${s.seat === mySeat ? "me" : ""} ${s.seat === current ? "to-act" : ""}`,
      "data-seat": s.seat,
    }, h("b", {}, s.seat === mySeat ? t("seat.you", { name: seatName(s) }) : seatName(s)), h("small", {}, status));
  }));
}

export function showTable(root, tableId) {
  const token = getToken(tableId);
  clear(root);
  setTopbar(t("table.topbar", { id: tableId }));
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
      indicator.textContent = s === "idle" ? "" : t(`connection.${s}`);
    },
    message: (m) => onMessage(m),
  });

  const ctx = {
    tableId,
    get seat() { return state.seat; },
    get info() { return state.info; },
    seatName: (i) => (state.info && state.info.seats[i] ? seatName(state.info.seats[i]) : t("seat.number", { number: i + 1 })),
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
    toast(refusalNodes(error));
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
      h("h2", {}, t("table.waiting_title", { game: gameTitle(info.variant, info.title) })),
      h("p", {}, t("table.rules_preset", { preset: presetLabel(info.preset) }), " ", h("a", { href: withLanguage(`/rules/${info.variant}`), target: "_blank", rel: "noopener", "data-testid": "waiting-rules" }, t("table.read_rules"))),
      invites.filter((i) => i.seat !== state.seat).length
        ? h("div", {}, h("p", {}, t("table.send_invites")),
          invites.filter((i) => i.seat !== state.seat).map((i) => h("p", { class: "invite" },
            h("span", {}, t("table.invite_seat", { number: i.seat + 1 })), " ", h("input", { readonly: true, value: i.url, onclick: (e) => e.target.select() }))))
        : null,
      missing.length ? h("p", { class: "muted" }, t("table.waiting_for", { names: listOf(missing.map(seatName)) })) : null,
      state.seat != null
        ? h("button", {
          class: "primary", "data-testid": "start", disabled: missing.length > 0,
          onclick: async (e) => { e.target.disabled = true; try { await conn.request({ type: "start" }); } catch (error) { showError(error); e.target.disabled = false; } },
        }, t("table.start"))
        : h("p", { class: "muted" }, t("table.watching")));
    clear(body).appendChild(box);
  }

  async function ensurePanel() {
    const variant = state.info.variant;
    if (state.panel && state.panelVariant === variant) return state.panel;
    const load = PANELS[variant];
    if (!load) { clear(body).appendChild(h("p", { class: "error-text" }, t("table.no_panel", { variant }))); return null; }
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
        setTopbar(t(state.role === "spectator" ? "table.topbar_watching" : "table.topbar_game", { game: gameTitle(message.table.variant, message.table.title), id: tableId }));
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
        toast(t("table.started"), "info");
        return;
      case "rematch":
        if (state.seat == null) { location.assign(`/t/${message.table_id}`); return; }
        if (message.by !== state.seat && await confirmDialog(t("table.rematch_offer", { name: ctx.seatName(message.by) }), { yes: t("table.join") })) {
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
