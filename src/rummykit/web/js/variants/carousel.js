// The Carousel panel: a rearrangement editor of the whole table. Move table and hand
// cards between melds (pick, then "Move here", or drag), start a new meld, declare a
// joker's card, reset the turn, or load the solver's best placement (hint); the server
// checks the edited layout live and says in words what is wrong. The hand sorts by suit or
// rank, or a card dragged within it makes the player's own order. Draw, meld, knock and
// end the turn; the score sheet and the end-of-hand reveal. Every rule is the server's.
import { RANK_ORDER, SUIT_ORDER, cardElement, declaredOf, faceOf, isJoker, rankIndex, rankName, sortCards, suitIndex, suitName } from "../cards.js";
import { clear, fill, h } from "../api.js";
import { listOf, t } from "../i18n.js";
import { errorText } from "../refusals.js";
import { VariantPanel, bubble, busyWhile, dragCard, fly, opponentsRow, markDropSlot, reorderedByDrop } from "./common.js";

const SORTS = ["suit", "rank"];

export function createPanel(root, ctx) {
  return new CarouselPanel(root, ctx);
}

/** The face a card stands for: its own, or a joker's declaration (display order only). */
function shownFace(card) { return isJoker(card) ? declaredOf(card) : faceOf(card); }

function meldOrder(cards) {
  // Display order only (the server takes a meld in any order): by rank, then suit; an
  // ace goes after a king when the meld has a king and no two; an undeclared joker last.
  const faces = cards.map((i) => shownFace(i.card)).filter(Boolean);
  const aceHigh = faces.some((f) => f.startsWith("K")) && !faces.some((f) => f.startsWith("2"));
  const rank = (f) => (aceHigh && f.startsWith("A") ? 13 : rankIndex(f));
  return [...cards].sort((a, b) => {
    const fa = shownFace(a.card);
    const fb = shownFace(b.card);
    if (!fa || !fb) return fa ? -1 : fb ? 1 : 0;
    return rank(fa) - rank(fb) || suitIndex(fa) - suitIndex(fb);
  });
}

/** A meld's cards as one string in display order (to compare layouts). */
function meldText(cards) { return meldOrder(cards.map((card) => ({ card }))).map((i) => i.card).join(" "); }

class CarouselPanel extends VariantPanel {
  constructor(root, ctx) {
    super(ctx, "carousel", { sorts: SORTS, fallback: "suit" });
    this.work = { melds: [], hand: [] };
    this.picked = new Set();
    this.nextKey = 1;
    this.check = null;
    this.checkNumber = 0;
    this.opponentsEl = h("section", { class: "opponents", "data-testid": "opponents" });
    this.drawInfoEl = h("p", { class: "draw-info", "data-testid": "draw-info" });
    this.adviceEl = h("p", { class: "advice", "data-testid": "advice" });
    this.meldsEl = h("section", { class: "melds", "data-testid": "carousel-table", "aria-label": t("carousel.table_label") });
    this.statusEl = h("p", { class: "layout-status", "data-testid": "layout-status" });
    this.handEl.dataset.zone = "hand";
    this.el = h("div", { class: "carousel-table variant-table" },
      h("div", { class: "felt" },
        this.opponentsEl,
        h("div", { class: "center-row" },
          h("div", { class: "piles" }, this.stockEl),
          h("div", { class: "center-text" }, this.promptEl, this.drawInfoEl, this.adviceEl)),
        this.meldsEl,
        this.statusEl,
        h("section", { class: "player-box me" }, this.toolbarEl, this.handEl, this.actionsEl)),
      this.sheetEl);
    this.mount(root, this.el);
  }

  // -- entry points from the table shell ------------------------------------------------

  followView(before, message) {
    // A draw only adds to the hand: keep the edits in progress. Anything else resets.
    const sameTable = message && JSON.stringify(before.table) === JSON.stringify(this.view.table)
      && before.hand_number === this.view.hand_number && this.myTurn;
    if (sameTable) this.refreshHand(); else this.resetWork();
    if (message && (message.actor === this.ctx.seat || !sameTable)) this.adviceEl.textContent = "";
  }

  // -- helpers ----------------------------------------------------------------------------

  item(card, origin) { const key = `k${this.nextKey++}`; return { key, card, origin }; }

  resetWork() {
    const v = this.view;
    this.work = {
      melds: v.table.map((meld) => meld.map((c) => this.item(c, "table"))),
      hand: (v.hand || []).map((c) => this.item(c, "hand")),
    };
    this.picked.clear();
    this.check = null;
  }

  /** After a draw: the hand cards not placed in the editor, the new card included. */
  refreshHand() {
    const placed = this.work.melds.flat().filter((i) => i.origin === "hand").map((i) => (isJoker(i.card) ? "JK" : i.card));
    const left = [...(this.view.hand || [])];
    for (const card of placed) { const at = left.indexOf(card); if (at >= 0) left.splice(at, 1); }
    const keep = [];
    for (const item of this.work.hand) { const at = left.indexOf(item.card); if (at >= 0) { left.splice(at, 1); keep.push(item); } }
    this.work.hand = [...keep, ...left.map((c) => this.item(c, "hand"))];
    for (const key of [...this.picked]) if (!this.find(key)) this.picked.delete(key);
  }

  layout() { return this.work.melds.filter((m) => m.length).map((m) => meldOrder(m).map((i) => i.card).join(" ")); }
  edited() { return JSON.stringify(this.layout()) !== JSON.stringify(this.view.table.map(meldText)); }

  find(key) {
    for (let m = 0; m < this.work.melds.length; m += 1) {
      const at = this.work.melds[m].findIndex((i) => i.key === key);
      if (at >= 0) return { list: this.work.melds[m], at, meld: m };
    }
    const at = this.work.hand.findIndex((i) => i.key === key);
    return at >= 0 ? { list: this.work.hand, at, meld: null } : null;
  }

  // -- rendering --------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    fill(this.opponentsEl, ...opponentsRow(v, this.ctx, {
      bottom: this.mySeat == null ? 0 : this.mySeat, isBot: (s) => this.isBot(s),
    }));
    fill(this.stockEl,
      v.stock_size > 0 ? cardElement(null) : h("div", { class: "card empty" }, h("span", {}, t("carousel.stock_empty"))),
      h("span", { class: "pile-count", "data-testid": "stock-count" }, `${v.stock_size}`));
    this.stockEl.classList.toggle("clickable", this.myTurn && Boolean(this.legal("draw")));
    this.renderPrompt();
    this.renderEditor();
    this.renderSheet();
    Object.assign(this.el.dataset, {
      myTurn: String(this.myTurn), hand: String(v.hand_number), draws: String(v.draws), melded: String(v.melded),
    });
  }

  renderPrompt() {
    const v = this.view;
    let text;
    if (v.is_over) text = t("prompt.game_over");
    else if (!this.myTurn) text = t(this.isBot(v.current_player) ? "prompt.thinking" : "prompt.to_play", { name: this.name(v.current_player) });
    else if (v.final_lap) text = t("carousel.prompt.final_lap");
    else if (v.melded) text = t("carousel.prompt.melded", { limit: v.knock_limit });
    else if (v.may_meld) text = t("carousel.prompt.may_meld");
    else text = t("carousel.prompt.end_turn");
    this.promptEl.textContent = text;
    this.drawInfoEl.textContent = v.is_over ? "" : [
      t("carousel.info.draws", { draws: v.draws, max: v.max_draws }),
      v.final_lap ? t("carousel.info.final_lap") : null,
      t("reveal.hand", { number: v.hand_number }),
      t("sheet.game_to", { count: v.target }),
    ].filter(Boolean).join(" · ");
  }

  renderEditor() {
    const v = this.view;
    const mine = this.myTurn;
    const movable = mine && this.picked.size > 0;
    const card = (item) => {
      const el = cardElement(item.card, {
        extraClass: ["table-card", item.origin === "hand" ? "from-hand" : "", this.picked.has(item.key) ? "picked" : ""].join(" "),
      });
      el.dataset.key = item.key;
      return el;
    };
    const original = v.table.map(meldText);
    const melds = this.work.melds.map((meld, index) => {
      if (!meld.length) return null;
      const text = meldOrder(meld).map((i) => i.card).join(" ");
      return h("div", {
        class: `meld ${original[index] === text ? "" : "changed"}`, "data-meld": index, "data-testid": `meld-${index}`,
      },
        h("div", { class: "combo-head" }, h("b", {}, `#${index + 1}`),
          movable ? h("button", { type: "button", class: "chip move-here", "data-testid": `move-to-${index}`, onclick: () => this.moveTo(index) }, t("carousel.move_here")) : null),
        h("div", { class: "combo-cards" }, meldOrder(meld).map(card)));
    });
    fill(this.meldsEl,
      melds.some(Boolean) ? melds : h("p", { class: "muted empty-table" }, t("carousel.table_empty")),
      mine && v.may_meld ? h("div", {
        class: "meld new-meld", "data-meld": "new", "data-testid": "new-meld", role: "button", tabindex: 0,
        onclick: () => (this.picked.size ? this.moveTo("new") : this.ctx.toast(t("carousel.toast.pick_first"), "info")),
        onkeydown: (event) => { if (event.key === "Enter" && this.picked.size) this.moveTo("new"); },
      }, this.picked.size ? t("carousel.new_meld_picked") : t("carousel.new_meld")) : null);
    this.renderStatus();
    // The hand (what is left of it in the editor).
    if (this.mySeat == null) {
      fill(this.toolbarEl, h("b", {}, t("common.watching")));
      fill(this.handEl, h("p", { class: "muted" }, t("common.spectator_hand")));
      clear(this.actionsEl);
      return;
    }
    const pickedFromHand = [...this.picked].some((key) => { const f = this.find(key); return f && f.meld !== null && f.list[f.at].origin === "hand"; });
    fill(this.toolbarEl,
      h("div", { class: "hand-info" }, h("b", {}, t("common.your_hand")),
        h("span", { class: "muted", "data-testid": "hand-value" }, ` ${this.edited()
          ? t("carousel.hand.left", { left: this.work.hand.length, count: v.hand.length })
          : `${t("common.cards", { count: v.hand.length })} · ${t("carousel.hand.value", { value: v.hand_value, limit: v.knock_limit })}`}`)),
      pickedFromHand ? h("button", { type: "button", class: "chip", "data-testid": "back-to-hand", onclick: () => this.moveTo("hand") }, t("carousel.back_to_hand")) : null,
      this.order.buttons(SORTS, () => this.renderEditor()));
    // The hand in the player's order (grouped by suit when sorted so), each card keeping
    // its editor key.
    const pool = [...this.work.hand];
    const ordered = this.order.arrange(pool.map((i) => i.card)).map((c) => pool.splice(pool.findIndex((i) => i.card === c), 1)[0]);
    const groups = [];
    for (const item of ordered) {
      const suit = this.order.mode !== "suit" ? "" : isJoker(item.card) ? "JK" : item.card.slice(-1);
      if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, items: [] });
      groups[groups.length - 1].items.push(item);
    }
    fill(this.handEl, groups.map((g) => h("div", { class: "group" }, g.items.map((item) => {
      const el = cardElement(item.card, { extraClass: this.picked.has(item.key) ? "selected" : "" });
      el.dataset.key = item.key;
      return el;
    }))));
    this.renderActions();
  }

  renderStatus() {
    const check = this.check;
    const el = this.statusEl;
    el.className = "layout-status";
    if (!this.myTurn || !this.edited()) {
      el.textContent = this.myTurn && this.view.may_meld ? t("carousel.status.pick") : "";
      el.dataset.ok = "";
      return;
    }
    if (!check) { el.textContent = t("carousel.status.checking"); el.dataset.ok = ""; return; }
    el.dataset.ok = String(Boolean(check.ok));
    if (check.ok) {
      el.classList.add("ok");
      el.textContent = t("carousel.status.legal", { cards: check.cards.join(" "), value: check.value, after: check.hand_value_after });
    } else {
      el.classList.add("bad");
      el.textContent = check.error ? errorText(check.error) : t("carousel.status.illegal");
    }
  }

  renderActions() {
    const v = this.view;
    clear(this.actionsEl);
    if (!this.myTurn) return;
    const picked = [...this.picked].map((key) => this.find(key)).filter(Boolean).map((f) => f.list[f.at]);
    const buttons = [];
    if (v.may_meld) {
      const ready = this.edited() && this.check && this.check.ok;
      buttons.push(h("button", { class: "primary", "data-testid": "meld", disabled: !ready || this.busy, onclick: () => this.meld() }, t("carousel.meld")));
    }
    if (this.legal("draw")) buttons.push(h("button", { class: "secondary", "data-testid": "draw", disabled: this.busy, onclick: () => this.send(this.legal("draw")) }, t("carousel.draw", { next: v.draws + 1, max: v.max_draws })));
    if (picked.length === 1 && isJoker(picked[0].card)) {
      buttons.push(h("button", { class: "secondary", "data-testid": "declare", onclick: () => this.declare(picked[0]) }, t("carousel.declare_joker")));
    }
    if (this.edited() || this.picked.size) buttons.push(h("button", { class: "secondary", "data-testid": "reset", onclick: () => { this.resetWork(); this.render(); } }, t("carousel.reset")));
    if (v.may_meld) buttons.push(h("button", { class: "secondary", "data-testid": "hint", disabled: this.busy, onclick: () => this.askHint() }, t("common.hint")));
    if (this.legal("knock")) buttons.push(h("button", { class: "primary gin", "data-testid": "knock", disabled: this.busy, onclick: () => this.knock() }, t("carousel.knock_with", { value: v.hand_value })));
    if (this.legal("end_turn")) buttons.push(h("button", { class: "secondary", "data-testid": "end-turn", disabled: this.busy, onclick: () => this.send(this.legal("end_turn")) }, t("carousel.end_turn")));
    this.actionsEl.append(...buttons);
  }

  renderSheet() {
    const v = this.view;
    const sheet = v.score_sheet;
    const seats = v.players.map((p) => p.seat);
    const final = sheet.final;
    fill(this.sheetEl,
      h("h3", {}, t("sheet.title"), " ", h("small", { class: "muted" }, `(${t("sheet.game_to", { count: sheet.target })})`)),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, t("carousel.sheet.hand")), seats.map((s) => h("th", { class: "num" }, this.name(s))))),
        h("tbody", {},
          sheet.rows.map((row) => h("tr", {},
            h("td", {}, `${row.hand}`, h("small", { class: "muted" }, ` ${t(`carousel.reason.${row.reason}`)}`)),
            seats.map((s) => h("td", { class: `num ${row.winners.includes(s) ? "winner" : ""}` }, row.points[s] ? `+${row.points[s]}` : "")))),
          h("tr", { class: "total" }, h("td", {}, t("carousel.sheet.score")), seats.map((s) => h("td", { class: "num", "data-testid": `total-${s}` }, `${v.scores[s]}`))),
          final ? [
            h("tr", {}, h("td", {}, t("carousel.sheet.game_bonus")), seats.map((s) => h("td", { class: "num" }, `${final.game_bonus[s]}`))),
            h("tr", {}, h("td", {}, t("carousel.sheet.round_bonus")), seats.map((s) => h("td", { class: "num" }, `${final.round_bonus[s]}`))),
            h("tr", { class: "total" }, h("td", {}, t("sheet.total")), seats.map((s) => h("td", { class: "num" }, `${final.totals[s]}`))),
          ] : null)),
      final ? h("p", { class: "final-line" }, t("sheet.winner", { names: listOf(final.winners.map((s) => this.name(s))) })) : null);
  }

  // -- editing ------------------------------------------------------------------------------

  toggle(key) {
    if (!this.myTurn || !this.view.may_meld) return;
    if (this.picked.has(key)) this.picked.delete(key); else this.picked.add(key);
    this.renderEditor();
  }

  async moveTo(target, keys = [...this.picked]) {
    const items = [];
    for (const key of keys) {
      const found = this.find(key);
      if (!found) continue;
      const item = found.list[found.at];
      if (target === "hand" && item.origin !== "hand") continue; // a table card is not ours to take
      found.list.splice(found.at, 1);
      items.push(item);
    }
    if (!items.length) { this.picked.clear(); this.renderEditor(); return; }
    let list;
    if (target === "hand") list = this.work.hand;
    else if (target === "new") { list = []; this.work.melds.push(list); }
    else list = this.work.melds[target];
    for (const item of items) {
      if (target === "hand" && isJoker(item.card)) item.card = "JK";
      list.push(item);
    }
    this.picked.clear();
    this.work.melds = this.work.melds.filter((m, i) => m.length || i < this.view.table.length);
    // A joker from the hand needs the card it stands for before the layout can be checked.
    for (const item of items) {
      if (target !== "hand" && item.card === "JK") await this.declare(item);
    }
    this.afterEdit();
  }

  async declare(item) {
    const current = declaredOf(item.card);
    const rank = h("select", { "data-testid": "declare-rank", "aria-label": t("carousel.declare.rank") },
      [...RANK_ORDER].map((r) => h("option", { value: r, selected: current ? current[0] === r : r === "A" }, rankName(r))));
    const suit = h("select", { "data-testid": "declare-suit", "aria-label": t("carousel.declare.suit") },
      [...SUIT_ORDER].map((s) => h("option", { value: s, selected: current ? current[1] === s : s === "S" }, suitName(s))));
    const answer = await new Promise((resolve) => {
      const close = (value) => { overlay.remove(); resolve(value); };
      const overlay = h("div", { class: "overlay", "data-testid": "declare-dialog" },
        h("div", { class: "dialog", role: "dialog", "aria-modal": "true" },
          h("p", { class: "dialog-text" }, t("carousel.declare.question")),
          h("div", { class: "declare-row" }, rank, h("span", {}, t("carousel.declare.of")), suit),
          h("div", { class: "dialog-buttons" },
            h("button", { class: "secondary", onclick: () => close(null) }, t("common.cancel")),
            h("button", { class: "primary", "data-testid": "declare-ok", onclick: () => close(`${rank.value}${suit.value}`) }, t("carousel.declare.ok")))));
      document.body.appendChild(overlay);
    });
    if (answer) item.card = `JK=${answer}`;
    this.afterEdit();
  }

  afterEdit() {
    this.check = null;
    this.renderEditor();
    this.refreshCheck();
  }

  async refreshCheck() {
    if (!this.myTurn || !this.edited()) return;
    const layout = this.layout();
    if (layout.some((m) => m.split(" ").includes("JK"))) {
      this.check = { ok: false, error: { code: "undeclared_in_editor" }, forKey: JSON.stringify(layout) };
      this.renderStatus();
      this.renderActions();
      return;
    }
    const number = ++this.checkNumber;
    let reply;
    try {
      reply = await this.ctx.check({ kind: "meld", layout });
    } catch (error) {
      reply = { ok: false, error };
    }
    if (number !== this.checkNumber || JSON.stringify(this.layout()) !== JSON.stringify(layout)) return;
    this.check = reply;
    this.renderStatus();
    this.renderActions();
  }

  async meld() {
    const layout = this.layout();
    await this.send({ kind: "meld", layout });
  }

  async knock() {
    const action = this.legal("knock");
    if (action && await this.ctx.confirm(t("carousel.confirm.knock", { value: this.view.hand_value }), { yes: t("gin.knock") })) this.send(action);
  }

  onStock() {
    if (!this.myTurn) return;
    const draw = this.legal("draw");
    if (draw) this.send(draw);
    else this.ctx.toast(this.view.final_lap ? t("carousel.toast.no_draw_final_lap") : t("carousel.toast.no_more_draws"), "info");
  }

  async askHint() {
    const advice = await busyWhile(this, () => this.ctx.hint());
    if (!advice) return;
    const placement = advice.placement;
    if (!placement) {
      this.adviceEl.textContent = t("carousel.hint.none");
      return;
    }
    // Load the solver's layout into the editor; the cards it adds come from the hand.
    const tableLeft = this.view.table.flat().map((c) => (isJoker(c) ? "JK" : c));
    const handLeft = [...(this.view.hand || [])];
    for (const c of placement.cards) { const at = handLeft.indexOf(c); if (at >= 0) handLeft.splice(at, 1); }
    this.work = {
      melds: placement.layout.map((meld) => meld.split(" ").map((c) => {
        const at = tableLeft.indexOf(isJoker(c) ? "JK" : c);
        if (at >= 0) { tableLeft.splice(at, 1); return this.item(c, "table"); }
        return this.item(c, "hand");
      })),
      hand: handLeft.map((c) => this.item(c, "hand")),
    };
    this.picked.clear();
    this.adviceEl.textContent = t("carousel.hint.placement", { cards: placement.cards.join(" "), value: placement.value });
    this.afterEdit();
  }

  // -- drag and drop ------------------------------------------------------------------------

  onPointerDown(event) {
    const cardEl = event.target.closest(".card[data-key]");
    if (!cardEl || event.button > 0 || this.mySeat == null) return;
    const key = cardEl.dataset.key;
    const zone = (target) => {
      if (!target || !this.myTurn) return null;
      return target.closest(".meld[data-meld]") || target.closest("[data-zone=hand]");
    };
    const found = this.find(key);
    const fromHand = Boolean(found && found.meld === null);
    dragCard(event, cardEl, {
      onClick: () => this.toggle(key),
      onMove: fromHand ? (x, y) => markDropSlot(this.handEl, cardEl, x, y) : null,
      highlight: (target) => {
        const into = zone(target);
        return fromHand && into && into.dataset.zone === "hand" ? null : into;
      },
      onDrop: (target, x, y) => {
        const into = zone(target);
        if (fromHand && !(into && into.dataset.meld !== undefined)) {
          // Within the hand: the player's own order (nothing is sent).
          const order = reorderedByDrop(this.handEl, cardEl, x, y);
          if (order) { this.order.place(order); this.renderEditor(); }
          return;
        }
        if (!into || !this.view.may_meld) return;
        const where = into.dataset.zone === "hand" ? "hand" : into.dataset.meld === "new" ? "new" : Number(into.dataset.meld);
        const keys = this.picked.has(key) ? [...this.picked] : [key];
        this.moveTo(where, keys);
      },
    });
  }

  // -- the other players' moves -----------------------------------------------------------

  async animate(events, actor) {
    const chip = this.opponentsEl.querySelector(`.opponent-chip[data-seat="${actor}"]`);
    for (const event of events) {
      if (event.seat !== actor || event.seat === this.mySeat) continue;
      if (event.kind === "draw") await fly(this.stockEl, chip, null);
      else if (event.kind === "meld") {
        const laid = (event.detail.from_hand || "").split(" ").filter(Boolean).length;
        bubble(chip, t("carousel.bubble.meld", { count: laid }));
        this.meldsEl.querySelectorAll(".meld").forEach((el) => { el.classList.add("fresh"); setTimeout(() => el.classList.remove("fresh"), 1200); });
      } else if (event.kind === "knock") bubble(chip, t("gin.bubble.knock"));
      else if (event.kind === "went_out") bubble(chip, t("carousel.bubble.went_out"));
    }
  }

  // -- end of a hand ------------------------------------------------------------------------

  showReveal(result) {
    const v = this.view;
    const name = (s) => this.name(s);
    const who = result.knocker == null ? t("carousel.reveal.stock_out") : t(`carousel.reveal.${result.reason}`, { name: name(result.knocker) });
    const title = `${who} ${t("carousel.reveal.winners", { names: listOf(result.winners.map(name)), count: result.winners.length })}`;
    this.openReveal({
      label: "reveal.hand", number: result.hand, outcome: result.reason, title,
      body: [
        h("table", { class: "reveal-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("reveal.player")), h("th", {}, t("reveal.cards_left")), h("th", { class: "num" }, t("carousel.reveal.value")), h("th", { class: "num" }, t("carousel.reveal.points")))),
          h("tbody", {}, result.hands.map((cards, seat) => h("tr", { class: result.winners.includes(seat) ? "winner" : "" },
            h("td", {}, name(seat), seat === result.knocker ? h("small", { class: "muted" }, ` ${t(result.reason === "went_out" ? "carousel.reveal.went_out_note" : "carousel.reveal.knocked_note")}`) : null),
            h("td", {}, h("div", { class: "reveal-cards" }, sortCards(cards, "suit").map((c) => cardElement(c, { extraClass: "table-card" })))),
            h("td", { class: "num" }, `${result.values[seat]}`),
            h("td", { class: "num" }, result.points[seat] ? `+${result.points[seat]}` : "0"))))),
        h("p", { class: "scores" }, t("reveal.scores", { scores: v.scores.map((s, i) => `${name(i)} ${s}`).join(" · ") })),
      ],
      finalResult: (final) => [
        h("h3", {}, t("reveal.wins_game", { names: listOf(final.winners.map(name)), count: final.winners.length })),
        h("p", {}, t("reveal.totals_with_bonuses", { totals: final.totals.map((total, s) => `${name(s)} ${total}`).join(" · ") })),
      ],
      next: t("reveal.next_hand"),
    });
  }
}
