// Pieces shared by the Rami and Carousel panels: the other players' row, flying cards,
// speech bubbles, a choice dialog, and the card-drag helper. No rule lives here.
import { cardElement } from "../cards.js";
import { h } from "../api.js";

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
        h("span", { class: "muted", "data-testid": "opponent-count" }, ` ${player.hand_size} card${player.hand_size === 1 ? "" : "s"}`),
        toAct ? h("span", { class: "thinking" }, isBot(seat) ? " thinking…" : " to play") : null),
      h("div", { class: "mini-fan", "aria-hidden": "true" },
        Array.from({ length: backs }, () => cardElement(null, { extraClass: "tiny" }))),
      h("div", { class: "chip-foot" },
        h("span", { class: "score-badge" }, `${view.scores[seat]} pts`),
        extra(seat, player)));
  });
}

/** Animate a card (or a back when `card` is null) from one element to another. */
export async function fly(fromEl, toEl, card) {
  if (REDUCED_MOTION || !fromEl || !toEl) return;
  const from = fromEl.getBoundingClientRect();
  const to = toEl.getBoundingClientRect();
  if (!from.width || !to.width) return;
  const ghost = cardElement(card, { extraClass: "flying" });
  const width = Math.min(from.width, to.width, 70) || 50;
  Object.assign(ghost.style, { left: `${from.left + from.width / 2 - width / 2}px`, top: `${from.top}px`, width: `${width}px` });
  document.body.appendChild(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top - from.top;
  try {
    await ghost.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
      { duration: 300, easing: "ease-in-out" }).finished;
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
        h("div", { class: "dialog-buttons" }, h("button", { class: "secondary", onclick: () => close(null) }, "Cancel"))));
    document.body.appendChild(overlay);
  });
}

/**
 * Pointer-drag a card element: `onDrop(target, x, y)` gets the element under the pointer
 * when released after moving; a press without movement calls `onClick()`.
 * `highlight(target)` returns the element to mark as a drop target while dragging.
 */
export function dragCard(event, cardEl, { onClick, onDrop, highlight }) {
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
    }
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    mark(null);
    if (!ghost) { onClick(); return; }
    ghost.remove();
    cardEl.classList.remove("drag-source");
    onDrop(document.elementFromPoint(e.clientX, e.clientY), e.clientX, e.clientY);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
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
