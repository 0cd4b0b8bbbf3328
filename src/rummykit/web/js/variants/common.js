// Pieces shared by the variant panels: the panel base (`VariantPanel`: whose turn, legal
// actions, sends, drags from the hand, the end-of-hand reveal), the other players' row, the
// piles, flying cards, speech bubbles, a choice dialog, the card-drag helper and the
// player's own order of their hand (auto-sort or drag to reorder). No rule lives here.
import { cardElement, sortCards } from "../cards.js";
import { fill, h } from "../api.js";
import { t } from "../i18n.js";

export const REDUCED_MOTION = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The other seats, in play order after `bottom`: name, card count, score and badges. */
export function opponentsRow(view, ctx, { bottom, isBot, extra = () => null }) {
  const seats = view.players.length;
  const order = [];
  for (let i = 1; i <= seats; i += 1) {
    const seat = (bottom + i) % seats;
    if (seat !== ctx.seat) order.push(seat);
  }
  return order.map((seat) => {
    const player = view.players[seat];
    const toAct = !view.is_over && view.current_player === seat;
    const backs = Math.min(player.hand_size, 13);
    return h("div", {
      class: `opponent-chip ${toAct ? "to-act" : ""} ${player.active === false ? "inactive" : ""}`,
      "data-seat": seat, "data-testid": `opponent-${seat}`,
    },
      h("div", { class: "player-head" },
        h("b", {}, ctx.seatName(seat)),
        h("span", { class: "muted", "data-testid": "opponent-count" }, ` ${t("common.cards", { count: player.hand_size })}`),
        toAct ? h("span", { class: "thinking" }, ` ${isBot(seat) ? t("common.thinking") : t("common.to_play")}`) : null),
      h("div", { class: "mini-fan", "aria-hidden": "true" },
        Array.from({ length: backs }, () => cardElement(null, { extraClass: "tiny" }))),
      h("div", { class: "chip-foot" },
        h("span", { class: "score-badge" }, t("common.points", { count: view.scores[seat] })),
        extra(seat, player)));
  });
}

/** Animate a card (or a back when `card` is null) from one element to another; the card
 * is at most `maxWidth` pixels wide (Gin's two-seat table shows larger cards). */
export async function fly(fromEl, toEl, card, { maxWidth = 70, fallbackWidth = 50, duration = 300 } = {}) {
  if (REDUCED_MOTION || !fromEl || !toEl) return;
  const from = fromEl.getBoundingClientRect();
  const to = toEl.getBoundingClientRect();
  if (!from.width || !to.width) return;
  const ghost = cardElement(card, { extraClass: "flying" });
  const width = Math.min(from.width, to.width, maxWidth) || fallbackWidth;
  Object.assign(ghost.style, { left: `${from.left + from.width / 2 - width / 2}px`, top: `${from.top}px`, width: `${width}px` });
  document.body.appendChild(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top - from.top;
  try {
    await ghost.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
      { duration, easing: "ease-in-out" }).finished;
  } catch (error) { /* animation cancelled */ }
  ghost.remove();
}

/** A short speech bubble over a seat's chip. */
export function bubble(host, text) {
  if (!host) return;
  const item = h("div", { class: "bubble", "data-testid": "bubble" }, text);
  host.appendChild(item);
  setTimeout(() => item.remove(), 1400);
}

/** A modal list of choices; resolves the chosen value, or null when cancelled. */
export function chooseDialog(text, choices) {
  return new Promise((resolve) => {
    const close = (answer) => { overlay.remove(); resolve(answer); };
    const overlay = h("div", { class: "overlay", "data-testid": "choose" },
      h("div", { class: "dialog", role: "dialog", "aria-modal": "true" },
        h("p", { class: "dialog-text" }, text),
        h("div", { class: "choice-list" }, choices.map((c, i) => h("button", {
          class: i === 0 ? "primary" : "secondary", "data-testid": `choice-${i}`, onclick: () => close(c.value),
        }, c.label))),
        h("div", { class: "dialog-buttons" }, h("button", { class: "secondary", onclick: () => close(null) }, t("common.cancel")))));
    document.body.appendChild(overlay);
  });
}

/**
 * Pointer-drag a card element: `onDrop(target, x, y)` gets the element under the pointer
 * when released after moving; a press without movement calls `onClick()`.
 * `highlight(target)` returns the element to mark as a drop target while dragging;
 * `onMove(x, y)` follows the pointer while dragging and `onMove(null)` ends it.
 */
export function dragCard(event, cardEl, { onClick, onDrop, highlight, onMove }) {
  event.preventDefault();
  const start = { x: event.clientX, y: event.clientY };
  const rect = cardEl.getBoundingClientRect();
  let ghost = null;
  let marked = null;
  const mark = (el) => {
    if (marked === el) return;
    if (marked) marked.classList.remove("drop-target");
    marked = el;
    if (marked) marked.classList.add("drop-target");
  };
  const move = (e) => {
    if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 6) {
      ghost = cardEl.cloneNode(true);
      ghost.classList.add("dragging");
      Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
      document.body.appendChild(ghost);
      cardEl.classList.add("drag-source");
    }
    if (ghost) {
      ghost.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
      mark(highlight ? highlight(document.elementFromPoint(e.clientX, e.clientY)) : null);
      if (onMove) onMove(e.clientX, e.clientY);
    }
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    mark(null);
    if (onMove) onMove(null);
    if (!ghost) { onClick(); return; }
    ghost.remove();
    cardEl.classList.remove("drag-source");
    onDrop(document.elementFromPoint(e.clientX, e.clientY), e.clientX, e.clientY);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

/** The stock (a back and how many cards are left) and the discard pile (its top card over
 * the one under it, and its size) of `view`; returns the top card, or null. */
export function fillPiles(view, stockEl, discardEl) {
  fill(stockEl,
    view.stock_size > 0 ? cardElement(null) : h("div", { class: "card empty" }),
    h("span", { class: "pile-count", "data-testid": "stock-count" }, `${view.stock_size}`));
  const pile = view.discard_pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  const under = pile.length > 1 ? pile[pile.length - 2] : null;
  fill(discardEl,
    under ? cardElement(under, { extraClass: "under" }) : null,
    top ? cardElement(top) : h("div", { class: "card empty" }, h("span", {}, t("common.discard_pile_empty"))),
    h("span", { class: "pile-count" }, pile.length ? `${pile.length}` : ""));
  return top;
}

/** Busy wrapper: run `work` once at a time, marking `el` busy meanwhile. */
export async function busyWhile(panel, work) {
  if (panel.busy) return undefined;
  panel.busy = true;
  panel.el.classList.add("busy");
  try {
    return await work();
  } catch (error) {
    return undefined; // the table shell has already shown the server's words
  } finally {
    panel.busy = false;
    panel.el.classList.remove("busy");
  }
}

// -- what every panel shares ----------------------------------------------------------------

/**
 * The part every variant panel shares: the table shell's context and the latest view,
 * whose turn it is, the legal actions, sends that wait for the server one at a time, the
 * player's order of their hand (see `HandOrder`) and the end-of-hand reveal, shown once
 * per hand. Each panel draws its own table and hand and makes its own moves.
 */
export class VariantPanel {
  constructor(ctx, variant, { sorts, fallback }) {
    this.ctx = ctx;
    this.view = null;
    this.info = null;
    this.busy = false;
    this.seenKey = `rummykit:${variant}:seen:${ctx.tableId}`;
    // The parts every table has; each panel lays them out with its own.
    this.stockEl = h("button", { class: "pile stock", "data-testid": "stock", type: "button", "aria-label": t("common.stock") });
    this.promptEl = h("p", { class: "prompt", "data-testid": "prompt" });
    this.toolbarEl = h("div", { class: "hand-toolbar" });
    this.handEl = h("div", { class: "hand", "data-testid": "hand" });
    this.actionsEl = h("div", { class: "hand-actions", "data-testid": "actions" });
    this.sheetEl = h("aside", { class: "score-sheet card-panel", "data-testid": "score-sheet" });
    this.order = new HandOrder({
      sortKey: `rummykit:${variant}:sort`,
      orderKey: ctx.seat == null ? null : `rummykit:${variant}:order:${ctx.tableId}:${ctx.seat}`,
      modes: sorts,
      fallback,
    });
  }

  /** A whole view from the table shell (on joining, or after a resync). */
  snapshot(view, info) {
    this.setView(view, info);
    this.followView(null, null);
    this.render();
    this.maybeReveal();
    this.afterRender();
  }

  /** An accepted move: the new view drawn, another player's move animated (a move of
   * ours marked), and the reveal once a hand has ended. */
  async update(message, info) {
    const before = this.view;
    this.setView(message.view, info);
    this.followView(before, message);
    this.render();
    if (message.actor !== this.ctx.seat) await this.animate(message.events, message.actor);
    else this.markOwnMove(message.events);
    if (this.view.last_result_hand > (before ? before.last_result_hand : 0)) this.maybeReveal();
    this.afterRender();
  }

  /** Keep what the panel holds (a selection, an editor) in step with a new view;
   * `before` and `message` are null for a snapshot. */
  followView(before, message) { /* nothing to keep by default */ }

  /** Our own move was accepted (the others' are animated by `animate`). */
  markOwnMove(events) { /* nothing to mark by default */ }

  /** After drawing: work that waits for the server (a live check). */
  afterRender() { /* nothing by default */ }

  /** Take a view from the table shell; the player's own order of the hand follows it. */
  setView(view, info) {
    this.view = view;
    this.info = info;
    this.order.follow(view.hand || []);
  }

  get mySeat() { return this.ctx.seat; }
  get myTurn() { const v = this.view; return v && !v.is_over && this.mySeat != null && v.current_player === this.mySeat; }
  /** The view's legal action of `kind` (and of `card`, when given), if any. */
  legal(kind, card) { return (this.view.legal_actions || []).find((a) => a.kind === kind && (card === undefined || a.card === card)); }
  name(seat) { return this.ctx.seatName(seat); }
  isBot(seat) { return this.info && this.info.seats[seat] && this.info.seats[seat].kind === "bot"; }

  /** Send `action` (none: a button whose move has gone); resolves the server's answer. */
  async send(action) {
    if (!action) return undefined;
    return busyWhile(this, () => this.ctx.act(action));
  }

  /** Put the panel in `root`; clicks on the piles and card drags from `dragArea` go to
   * the panel's `onStock`, `onDiscardPile` (when it has a discard pile) and `onPointerDown`. */
  mount(root, dragArea) {
    root.appendChild(this.el);
    this.stockEl.addEventListener("click", () => this.onStock());
    if (this.discardEl) this.discardEl.addEventListener("click", () => this.onDiscardPile());
    dragArea.addEventListener("pointerdown", (event) => this.onPointerDown(event));
  }

  /**
   * A press on a card of the hand: a click goes to `onCardClick(card)`; a drop that
   * `dropOn(card, target)` plays returns true; any other drop within the hand moves the card
   * there (the player's own order). `highlight(card, target)` marks where it would be played.
   */
  dragFromHand(event, { highlight, dropOn }) {
    const cardEl = event.target.closest(".card[data-card]");
    if (!cardEl || this.mySeat == null || event.button > 0) return;
    const card = cardEl.dataset.card;
    dragCard(event, cardEl, {
      onClick: () => this.onCardClick(card),
      onMove: (x, y) => markDropSlot(this.handEl, cardEl, x, y),
      highlight: (target) => highlight(card, target),
      onDrop: (target, x, y) => {
        if (dropOn(card, target)) return;
        const order = reorderedByDrop(this.handEl, cardEl, x, y);
        if (order) { this.order.place(order); this.renderHand(); this.renderToolbar(); }
      },
    });
  }

  /** Show the last hand's result unless this browser has shown it already. */
  maybeReveal() {
    const v = this.view;
    const seen = Number(localStorage.getItem(this.seenKey) || 0);
    if (!v.last_result || v.last_result_hand <= seen) return;
    this.showReveal(v.last_result, v.last_result_hand);
  }

  /**
   * The end-of-hand dialog: `title`, the panel's `body`, and the game's final result
   * (`finalResult(final)`) once it is over. Closing it remembers hand `number` as seen;
   * `label` is the message id that names a hand ("Hand {number}") and `next` the close
   * button while play goes on.
   */
  openReveal({ label, number, outcome, title, body, finalResult, next }) {
    document.querySelectorAll(".overlay.reveal").forEach((el) => el.remove());
    const final = this.view.is_over ? this.view.score_sheet.final : null;
    const close = () => { localStorage.setItem(this.seenKey, String(number)); overlay.remove(); };
    const overlay = h("div", { class: "overlay reveal", "data-testid": "reveal", "data-outcome": outcome },
      h("div", { class: "dialog wide" },
        h("p", { class: "muted" }, t(label, { number })),
        h("h2", { "data-testid": "reveal-title" }, title),
        ...body,
        final ? h("div", { class: "final", "data-testid": "final" }, ...finalResult(final)) : null,
        h("div", { class: "dialog-buttons" },
          final && this.mySeat != null ? h("button", { class: "secondary", "data-testid": "reveal-rematch", onclick: () => { close(); this.ctx.rematch(); } }, t("common.rematch")) : null,
          h("button", { class: "primary", "data-testid": "reveal-close", onclick: close }, final ? t("common.close") : next))));
    document.body.appendChild(overlay);
  }
}

// -- the player's order of their hand ------------------------------------------------------

/** `order` applied to `cards` (a multiset: Carousel's two decks repeat faces): the cards
 * of `order` still in `cards` in that order, then the others in their own order. */
export function mergeOrder(order, cards) {
  const pool = [...cards];
  const kept = [];
  for (const card of order) {
    const at = pool.indexOf(card);
    if (at >= 0) { kept.push(card); pool.splice(at, 1); }
  }
  return [...kept, ...pool];
}

function readOrder(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    return Array.isArray(saved) && saved.every((c) => typeof c === "string") ? saved : null;
  } catch (error) {
    return null;
  }
}

/**
 * How a player likes their hand shown: an automatic sort (`suit`, `rank`, or a mode the
 * panel draws itself, such as Gin's `melds`), or their own order once they drag a card.
 * The sort is remembered per variant (`sortKey`); an own order per table and seat
 * (`orderKey`), in the browser only, and it follows the hand: cards still held keep
 * their places, new cards are appended, cards gone are removed.
 */
export class HandOrder {
  constructor({ sortKey, orderKey, modes, fallback }) {
    this.sortKey = sortKey;
    this.orderKey = orderKey;
    this.custom = orderKey ? readOrder(orderKey) : null;
    const saved = localStorage.getItem(sortKey);
    this.sorted = modes.includes(saved) ? saved : fallback;
  }

  /** `custom` while the player's own order holds, else the automatic sort. */
  get mode() { return this.custom ? "custom" : this.sorted; }

  /** Sort automatically again (the own order is forgotten). */
  sortBy(mode) {
    this.sorted = mode;
    this.custom = null;
    localStorage.setItem(this.sortKey, mode);
    if (this.orderKey) localStorage.removeItem(this.orderKey);
  }

  /** After an update: keep the own order in step with the whole hand. */
  follow(hand) {
    if (!this.custom) return;
    const next = mergeOrder(this.custom, hand);
    if (next.join(" ") !== this.custom.join(" ")) this.save(next);
  }

  /** `cards` (the hand, or the part of it on show) in the order to show them. */
  arrange(cards) {
    return this.custom ? mergeOrder(this.custom, cards) : sortCards(cards, this.sorted);
  }

  /** The player dragged a card: `shown` is the new order of the cards on show; cards of
   * the hand not on show (set aside in an editor) follow them. */
  place(shown) {
    const rest = [...(this.custom || [])];
    for (const card of shown) { const at = rest.indexOf(card); if (at >= 0) rest.splice(at, 1); }
    this.save([...shown, ...rest]);
  }

  save(order) {
    this.custom = order;
    if (this.orderKey) {
      try { localStorage.setItem(this.orderKey, JSON.stringify(order)); } catch (error) { /* storage full: kept in memory */ }
    }
  }

  /** The sort buttons; `onChange()` redraws the hand. */
  buttons(modes, onChange) {
    return h("div", { class: "sort-buttons", role: "group", "aria-label": t("sort.label") },
      modes.map((mode) => h("button", {
        type: "button", class: `chip ${this.mode === mode ? "active" : ""}`, "data-testid": `sort-${mode}`,
        "aria-pressed": String(this.mode === mode),
        onclick: () => { this.sortBy(mode); onChange(); },
      }, t(`sort.${mode}`))),
      this.custom ? h("span", {
        class: "chip own-order", "data-testid": "sort-custom", title: t("sort.custom_help"),
      }, t("sort.custom")) : null);
  }
}

/** Where a card dragged within the hand would land: `{ others, index }` (the other
 * cards and how many of them come before it), or null away from the hand. Cards are read
 * in reading order (rows of a wrapped hand top to bottom); an overlapped card counts by
 * its visible part. */
function dropSlot(handEl, draggedEl, x, y) {
  const box = handEl.getBoundingClientRect();
  if (y < box.top - 40 || y > box.bottom + 40 || x < box.left - 40 || x > box.right + 40) return null;
  const others = [...handEl.querySelectorAll(".card[data-card]")].filter((el) => el !== draggedEl);
  const rects = others.map((el) => el.getBoundingClientRect());
  let index = 0;
  for (let i = 0; i < others.length; i += 1) {
    const r = rects[i];
    const next = rects[i + 1];
    const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
    const visibleRight = sameRow ? Math.min(r.right, next.left) : r.right;
    const onRow = y >= r.top - 20 && y <= r.bottom + 20;
    if (r.bottom < y && !onRow) index = i + 1;
    else if (onRow && x >= (r.left + visibleRight) / 2) index = i + 1;
  }
  return { others, index };
}

/** The hand's card faces in their new order once `draggedEl` is dropped at (x, y), or
 * null when it was dropped away from the hand. */
export function reorderedByDrop(handEl, draggedEl, x, y) {
  const slot = dropSlot(handEl, draggedEl, x, y);
  if (!slot) return null;
  const order = slot.others.map((el) => el.dataset.card);
  order.splice(slot.index, 0, draggedEl.dataset.card);
  return order;
}

/** While dragging within the hand: mark where the card would go (x null: unmark). */
export function markDropSlot(handEl, draggedEl, x, y) {
  handEl.querySelectorAll(".insert-before, .insert-after").forEach((el) => el.classList.remove("insert-before", "insert-after"));
  const slot = x == null ? null : dropSlot(handEl, draggedEl, x, y);
  if (!slot || !slot.others.length) return;
  if (slot.index < slot.others.length) slot.others[slot.index].classList.add("insert-before");
  else slot.others[slot.others.length - 1].classList.add("insert-after");
}
