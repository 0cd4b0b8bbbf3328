// The replay viewer of a finished game: every step of the record, all hands shown.
import { api, clear, fill, h, setTopbar } from "./api.js";
import { cardElement, sortCards } from "./cards.js";

function describe(step, seats) {
  if (!step.action) return "The deal.";
  const who = seats[step.seat] ? seats[step.seat].name : `Seat ${step.seat + 1}`;
  const a = step.action;
  const words = a.kind.replace(/_/g, " ");
  return `${who}: ${words}${a.card ? ` ${a.card}` : ""}${step.by && step.by !== "human" ? ` (${step.by})` : ""}`;
}

export async function showReplay(root, tableId) {
  setTopbar(`Replay of table ${tableId}`);
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
  const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": "step" });
  const label = h("span", { class: "muted" });
  const show = () => {
    const step = steps[index];
    const s = step.state;
    slider.value = index;
    label.textContent = ` step ${index} of ${steps.length - 1}`;
    fill(stage, 
      h("p", { class: "prompt" }, describe(step, record.seats)),
      h("p", { class: "muted" }, `Hand ${s.hand_number} · stock ${s.stock_size} · scores ${s.scores.join(" – ")}`),
      // Rami and Carousel replays show the table's combinations too.
      s.table && s.table.length ? h("div", { class: "combos replay-table" }, s.table.map((combo, i) => {
        const cards = Array.isArray(combo) ? combo : combo.cards;
        return h("div", { class: "combo" }, h("div", { class: "combo-head" }, `#${Array.isArray(combo) ? i + 1 : combo.index}`),
          h("div", { class: "combo-cards" }, cards.map((c) => cardElement(c, { extraClass: "table-card" }))));
      })) : null,
      (s.hands || []).map((cards, seat) => h("div", { class: "player-box" },
        h("b", {}, record.seats[seat].name),
        h("div", { class: "hand" }, h("div", { class: "group" }, sortCards(cards, "suit").map((c) => cardElement(c)))))),
      h("div", { class: "piles" }, h("div", { class: "pile discard" },
        s.discard_pile.length ? cardElement(s.discard_pile[s.discard_pile.length - 1]) : h("div", { class: "card empty" }))));
  };
  slider.addEventListener("input", () => { index = Number(slider.value); show(); });
  const go = (d) => { index = Math.max(0, Math.min(steps.length - 1, index + d)); show(); };
  root.append(
    h("div", { class: "card-panel" },
      h("h2", {}, `${record.seats.map((s) => s.name).join(" vs ")}`),
      h("p", { class: "muted" }, `${record.variant} · ${record.preset} · seed ${record.seed} · ${record.actions.length} actions`),
      h("div", { class: "replay-controls" },
        h("button", { class: "secondary", onclick: () => go(-1) }, "◀"), slider,
        h("button", { class: "secondary", onclick: () => go(1) }, "▶"), label)),
    stage);
  show();
}
