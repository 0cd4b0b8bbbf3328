// The replay viewer of a finished game: every step of the record, all hands shown.
import { api, clear, fill, h, setTopbar } from "./api.js";
import { cardElement, faceOf, sortCards } from "./cards.js";
import { has, t } from "./i18n.js";
import { gameTitle, presetLabel, seatName } from "./names.js";

/** A step of the record in words: who did what, from the action's kind and card. */
function describe(step, seats) {
  if (!step.action) return t("replay.deal");
  const who = seats[step.seat] ? seatName({ ...seats[step.seat], seat: step.seat }) : t("seat.number", { number: step.seat + 1 });
  const a = step.action;
  const words = has(`action.${a.kind}`) ? t(`action.${a.kind}`) : a.kind.replace(/_/g, " ");
  const by = step.by && step.by !== "human" ? ` (${t(`replay.by.${step.by}`)})` : "";
  return `${who}: ${words}${a.card ? ` ${faceOf(a.card)}` : ""}${by}`;
}

export async function showReplay(root, tableId) {
  setTopbar(t("replay.topbar", { id: tableId }));
  clear(root);
  let data;
  try {
    data = await api(`/api/games/${encodeURIComponent(tableId)}/replay`);
  } catch (error) {
    root.appendChild(h("p", { class: "error-text" }, error.message));
    return;
  }
  const { record, steps } = data;
  let index = 0;
  const stage = h("div", { class: "replay-stage", "data-testid": "replay" });
  const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": t("replay.step_label") });
  const label = h("span", { class: "muted" });
  const show = () => {
    const step = steps[index];
    const s = step.state;
    slider.value = index;
    label.textContent = ` ${t("replay.step", { step: index, last: steps.length - 1 })}`;
    fill(stage, 
      h("p", { class: "prompt" }, describe(step, record.seats)),
      h("p", { class: "muted" }, t("replay.state", { hand: s.hand_number, stock: s.stock_size, scores: s.scores.join(" – ") })),
      // Rami and Carousel replays show the table's combinations too.
      s.table && s.table.length ? h("div", { class: "combos replay-table" }, s.table.map((combo, i) => {
        const cards = Array.isArray(combo) ? combo : combo.cards;
        return h("div", { class: "combo" }, h("div", { class: "combo-head" }, `#${Array.isArray(combo) ? i + 1 : combo.index}`),
          h("div", { class: "combo-cards" }, cards.map((c) => cardElement(c, { extraClass: "table-card" }))));
      })) : null,
      (s.hands || []).map((cards, seat) => h("div", { class: "player-box" },
        h("b", {}, seatName({ ...record.seats[seat], seat })),
        h("div", { class: "hand" }, h("div", { class: "group" }, sortCards(cards, "suit").map((c) => cardElement(c)))))),
      h("div", { class: "piles" }, h("div", { class: "pile discard" },
        s.discard_pile.length ? cardElement(s.discard_pile[s.discard_pile.length - 1]) : h("div", { class: "card empty" }))));
  };
  slider.addEventListener("input", () => { index = Number(slider.value); show(); });
  const go = (d) => { index = Math.max(0, Math.min(steps.length - 1, index + d)); show(); };
  root.append(
    h("div", { class: "card-panel" },
      h("h2", {}, record.seats.map((s, seat) => seatName({ ...s, seat })).join(t("lobby.versus"))),
      h("p", { class: "muted" }, t("replay.summary", {
        game: gameTitle(record.variant, record.variant), preset: presetLabel(record.preset), seed: record.seed, count: record.actions.length,
      })),
      h("div", { class: "replay-controls" },
        h("button", { class: "secondary", onclick: () => go(-1) }, "◀"), slider,
        h("button", { class: "secondary", onclick: () => go(1) }, "▶"), label)),
    stage);
  show();
}
