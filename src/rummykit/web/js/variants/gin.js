// The Gin Rummy panel: hand (melds grouped, auto-sort, drag to reorder), stock and discard
// pile, knock / gin with confirmation, live deadwood, score sheet, end-of-hand reveal.
// Every rule is the server's: this module only shows the view it is sent and sends back
// one of the legal actions listed in it.
import { cardElement, cardName, sortCards } from "../cards.js";
import { clear, fill, h } from "../api.js";
import { t } from "../i18n.js";
import { VariantPanel, bubble, fillPiles, fly } from "./common.js";

const SORTS = ["melds", "suit", "rank"];
/** Gin's two-seat table shows larger cards, so they fly larger. */
const LARGE_CARD = { maxWidth: 90, fallbackWidth: 60, duration: 320 };

export function createPanel(root, ctx) {
  return new GinPanel(root, ctx);
}

function splitCards(text) { return text ? text.split(" ").filter(Boolean) : []; }

class GinPanel extends VariantPanel {
  constructor(root, ctx) {
    super(ctx, "gin", { sorts: SORTS, fallback: "melds" });
    this.selected = null;
    this.discardEl = h("button", { class: "pile discard", "data-testid": "discard-pile", type: "button", "aria-label": t("common.discard_pile") });
    this.centerActions = h("div", { class: "center-actions" });
    this.opponentEl = h("section", { class: "player-box opponent", "data-testid": "opponent" });
    this.meEl = h("section", { class: "player-box me" }, this.toolbarEl, this.handEl, this.actionsEl);
    this.el = h("div", { class: "gin-table" },
      h("div", { class: "felt" },
        this.opponentEl,
        h("section", { class: "center" }, h("div", { class: "piles" }, this.stockEl, this.discardEl), this.promptEl, this.centerActions),
        this.meEl),
      this.sheetEl);
    this.mount(root, this.handEl);
  }

  // -- entry points from the table shell --------------------------------------------------

  followView(before, message) {
    if (message && message.actor === this.ctx.seat) this.selected = null;
    if (this.selected && !(this.view.hand || []).includes(this.selected)) this.selected = null;
  }

  // -- helpers -------------------------------------------------------------------------------

  get bottomSeat() { return this.mySeat == null ? 0 : this.mySeat; }

  // -- rendering -----------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    this.renderOpponent();
    this.renderPiles();
    this.renderPrompt();
    this.renderToolbar();
    this.renderHand();
    this.renderActions();
    this.renderSheet();
    Object.assign(this.el.dataset, { phase: v.phase, myTurn: String(this.myTurn), hand: String(v.hand_number) });
  }

  renderOpponent() {
    const v = this.view;
    const seat = 1 - this.bottomSeat;
    const player = v.players[seat];
    const known = new Set(player.known_cards);
    const backs = h("div", { class: "opponent-cards", "data-testid": "opponent-cards", "data-count": player.hand_size },
      Array.from({ length: player.hand_size - known.size }, () => cardElement(null, { extraClass: "small" })),
      player.known_cards.map((c) => cardElement(c, { extraClass: "small known" })));
    const toAct = !v.is_over && v.current_player === seat;
    fill(this.opponentEl,
      h("div", { class: "player-head" },
        h("b", {}, this.name(seat)),
        h("span", { class: "muted", "data-testid": "opponent-count" }, ` ${t("common.cards", { count: player.hand_size })}`),
        toAct ? h("span", { class: "thinking" }, ` ${this.isBot(seat) ? t("common.thinking") : t("common.to_play")}`) : null),
      backs);
    this.opponentEl.classList.toggle("to-act", toAct);
  }

  renderPiles() {
    const v = this.view;
    const top = fillPiles(v, this.stockEl, this.discardEl);
    const canStock = this.myTurn && !!this.legal("draw_stock");
    const canPile = this.myTurn && (!!this.legal("take_upcard") || !!this.legal("draw_discard")
      || (this.selected && !!this.legal("discard", this.selected)));
    this.stockEl.classList.toggle("clickable", canStock);
    this.discardEl.classList.toggle("clickable", Boolean(canPile));
    this.stockEl.setAttribute("aria-label", t(canStock ? "gin.stock_label_draw" : "gin.stock_label", { count: v.stock_size }));
    this.discardEl.setAttribute("aria-label", top ? t("gin.discard_label", { card: cardName(top) }) : t("gin.discard_label_empty"));
  }

  renderPrompt() {
    const v = this.view;
    let text;
    if (v.is_over) text = t("gin.prompt.over");
    else if (this.mySeat == null) text = t("prompt.to_play", { name: this.name(v.current_player) });
    else if (!this.myTurn) text = t(this.isBot(v.current_player) ? "prompt.thinking" : "prompt.to_play", { name: this.name(v.current_player) });
    else if (v.phase === "offer") text = t("gin.prompt.offer");
    else if (v.phase === "draw") text = this.legal("draw_discard") ? t("gin.prompt.draw") : t("gin.prompt.draw_stock_only");
    else if (v.phase === "discard") text = t("gin.prompt.discard");
    else if (v.phase === "layoff") text = t("gin.prompt.layoff");
    else text = "";
    this.promptEl.textContent = text;
    clear(this.centerActions);
    if (this.myTurn && this.legal("pass")) {
      this.centerActions.append(h("button", { class: "secondary", "data-testid": "pass", disabled: this.busy, onclick: () => this.send(this.legal("pass")) }, t("gin.pass")));
    }
    if (this.myTurn && this.legal("lay_off")) {
      this.centerActions.append(h("button", { class: "primary", "data-testid": "lay-off", onclick: () => this.send(this.legal("lay_off")) }, t("gin.lay_off")));
    }
  }

  renderToolbar() {
    const v = this.view;
    const sorts = this.order.buttons(SORTS, () => { this.renderHand(); this.renderToolbar(); });
    if (this.mySeat == null) { fill(this.toolbarEl, h("b", {}, this.name(this.bottomSeat))); return; }
    let deadwood = v.deadwood;
    let note = "";
    const after = v.discard_deadwood || {};
    if (this.myTurn && v.phase === "discard" && Object.keys(after).length) {
      if (this.selected && after[this.selected] !== undefined) {
        deadwood = after[this.selected];
        note = ` ${t("gin.after_discarding", { card: this.selected })}`;
      } else {
        deadwood = Math.min(...Object.entries(after).filter(([c]) => c !== v.taken_card).map(([, d]) => d));
        note = ` ${t("gin.after_best_discard")}`;
      }
    }
    fill(this.toolbarEl,
      h("span", { class: "deadwood" }, t("gin.deadwood"), " ", h("b", { "data-testid": "deadwood" }, String(deadwood)), h("small", { class: "muted" }, note)),
      sorts);
  }

  orderedGroups() {
    const v = this.view;
    const hand = v.hand;
    if (this.order.mode === "melds") {
      const groups = v.melds.map((m, i) => ({ cards: m, meld: i }));
      const loose = sortCards(v.deadwood_cards, "rank");
      if (loose.length) groups.push({ cards: loose, meld: null });
      return groups;
    }
    return [{ cards: this.order.arrange(hand), meld: null }];
  }

  renderHand() {
    const v = this.view;
    clear(this.handEl);
    if (this.mySeat == null) {
      const count = v.players[this.bottomSeat].hand_size;
      this.handEl.append(h("div", { class: "group" }, Array.from({ length: count }, () => cardElement(null))));
      return;
    }
    const meldOf = new Map();
    v.melds.forEach((m, i) => m.forEach((c) => meldOf.set(c, i)));
    const after = v.discard_deadwood || {};
    for (const group of this.orderedGroups()) {
      const box = h("div", { class: `group ${group.meld != null ? `meld meld-${group.meld % 4}` : ""}` });
      for (const card of group.cards) {
        const meld = meldOf.get(card);
        const el = cardElement(card, { extraClass: meld != null ? `in-meld meld-${meld % 4}` : "deadwood-card" });
        if (card === this.selected) el.classList.add("selected");
        if (card === v.taken_card) { el.classList.add("taken"); el.title = t("gin.taken_title"); }
        if (after[card] !== undefined) el.dataset.after = after[card];
        if (this.myTurn && this.legal("discard", card)) el.classList.add("discardable");
        box.append(el);
      }
      this.handEl.append(box);
    }
  }

  ginCard() {
    const v = this.view;
    const after = v.discard_deadwood || {};
    const candidates = (v.legal_actions || []).filter((a) => a.kind === "knock" && after[a.card] === 0).map((a) => a.card);
    if (!candidates.length) return null;
    return candidates.includes(this.selected) ? this.selected : candidates[candidates.length - 1];
  }

  renderActions() {
    clear(this.actionsEl);
    if (!this.myTurn || this.view.phase !== "discard") return;
    const v = this.view;
    const selected = this.selected;
    const after = v.discard_deadwood || {};
    const discard = selected && this.legal("discard", selected);
    const knock = selected && this.legal("knock", selected);
    const ginCard = this.ginCard();
    const bigGin = this.legal("big_gin");
    fill(this.actionsEl,
      h("button", { class: "secondary", "data-testid": "discard", disabled: !discard || this.busy, onclick: () => this.send(discard) },
        selected ? t("gin.discard_card", { card: selected }) : t("gin.discard")),
      h("button", {
        class: "primary", "data-testid": "knock", disabled: !knock || after[selected] === 0 || this.busy,
        onclick: () => this.knock(selected),
      }, knock && after[selected] !== 0 ? t("gin.knock_with", { deadwood: after[selected] }) : t("gin.knock")),
      ginCard ? h("button", { class: "primary gin", "data-testid": "gin", disabled: this.busy, onclick: () => this.gin(ginCard) }, t("gin.gin")) : null,
      bigGin ? h("button", { class: "primary gin", "data-testid": "big-gin", disabled: this.busy, onclick: () => this.bigGin() }, t("gin.big_gin")) : null);
  }

  renderSheet() {
    const v = this.view;
    const sheet = v.score_sheet;
    const seats = [0, 1];
    const rows = sheet.rows.map((r) => h("tr", {},
      h("td", {}, String(r.hand)),
      h("td", {}, t(`gin.outcome.${r.outcome}`)),
      seats.map((s) => h("td", { class: "num" }, r.winner === s ? `+${r.points}` : "")),
      seats.map((s) => h("td", { class: "num muted" }, String(r.running[s])))));
    const final = sheet.final;
    const foot = final ? [
      h("tr", {}, h("td", { colspan: 2 }, t("gin.sheet.game_bonus")), seats.map((s) => h("td", { class: "num" }, String(final.game_bonus[s]))), h("td", { colspan: 2 })),
      h("tr", {}, h("td", { colspan: 2 }, t("gin.sheet.line_bonus")), seats.map((s) => h("td", { class: "num" }, String(final.line_bonus[s]))), h("td", { colspan: 2 })),
      final.shutout ? h("tr", {}, h("td", { colspan: 6 }, t("gin.sheet.shutout"))) : null,
      h("tr", { class: "total" }, h("td", { colspan: 2 }, t("gin.sheet.total")), seats.map((s) => h("td", { class: "num", "data-testid": `total-${s}` }, String(final.totals[s]))), h("td", { colspan: 2 })),
    ] : [];
    fill(this.sheetEl,
      h("h3", {}, t("sheet.title")),
      h("p", { class: "scores", "data-testid": "scores" },
        `${this.name(0)} ${v.scores[0]} · ${this.name(1)} ${v.scores[1]}`, h("small", { class: "muted" }, ` ${t("gin.sheet.target", { target: sheet.target })}`)),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, ""), seats.map((s) => h("th", { class: "num" }, this.name(s))), h("th", { colspan: 2, class: "num muted" }, t("gin.sheet.running")))),
        h("tbody", {}, rows),
        h("tfoot", {}, foot)),
      v.is_over && this.mySeat != null ? h("button", { class: "primary", "data-testid": "rematch", onclick: () => this.ctx.rematch() }, t("common.rematch")) : null);
  }

  // -- moves -----------------------------------------------------------------------------------

  onStock() {
    if (!this.myTurn) return;
    const action = this.legal("draw_stock");
    if (action) this.send(action);
    else if (this.legal("take_upcard")) this.ctx.toast(t("gin.toast.upcard_first"), "info");
  }

  onDiscardPile() {
    if (!this.myTurn) return;
    if (this.selected && this.legal("discard", this.selected)) { this.send(this.legal("discard", this.selected)); return; }
    const action = this.legal("take_upcard") || this.legal("draw_discard");
    if (action) this.send(action);
    else if (this.view.phase === "discard") this.ctx.toast(t("gin.toast.choose_discard"), "info");
  }

  onCardClick(card) {
    const v = this.view;
    if (this.myTurn && v.phase === "discard" && this.selected === card) {
      const discard = this.legal("discard", card);
      if (discard) { this.send(discard); return; }
      if (card === v.taken_card) this.ctx.toast(t("gin.toast.taken_card", { card }));
      return;
    }
    this.selected = this.selected === card ? null : card;
    this.renderHand();
    this.renderToolbar();
    this.renderActions();
    this.renderPiles();
  }

  async knock(card) {
    const action = this.legal("knock", card);
    if (!action) return;
    const deadwood = (this.view.discard_deadwood || {})[card];
    if (await this.ctx.confirm(t("gin.confirm.knock", { card, deadwood }), { yes: t("gin.knock") })) this.send(action);
  }

  async gin(card) {
    const action = this.legal("knock", card);
    if (!action) return;
    if (await this.ctx.confirm(t("gin.confirm.gin", { card }), { yes: t("gin.gin") })) this.send(action);
  }

  async bigGin() {
    const action = this.legal("big_gin");
    if (action && await this.ctx.confirm(t("gin.confirm.big_gin"), { yes: t("gin.big_gin") })) this.send(action);
  }

  // -- drag to reorder or discard ----------------------------------------------------------

  onPointerDown(event) {
    this.dragFromHand(event, {
      highlight: (card, target) => (target && this.discardEl.contains(target) && this.myTurn && this.legal("discard", card) ? this.discardEl : null),
      dropOn: (card, target) => {
        if (!target || !this.discardEl.contains(target)) return false;
        const discard = this.myTurn && this.legal("discard", card);
        if (discard) this.send(discard);
        else if (this.myTurn && this.view.phase === "discard") this.ctx.toast(t(card === this.view.taken_card ? "gin.toast.taken_card" : "gin.toast.cannot_discard", { card }));
        return true;
      },
    });
  }

  // -- animations of the other players' moves ------------------------------------------

  async animate(events, actor) {
    for (const event of events) {
      if (event.seat !== actor || event.seat === this.mySeat) continue;
      const opponent = this.opponentEl.querySelector(".opponent-cards") || this.opponentEl;
      if (event.kind === "take_upcard" || event.kind === "draw_discard") await fly(this.discardEl, opponent, event.card, LARGE_CARD);
      else if (event.kind === "draw_stock") await fly(this.stockEl, opponent, null, LARGE_CARD);
      else if (event.kind === "discard") await fly(opponent, this.discardEl, event.card, LARGE_CARD);
      else if (["pass", "knock", "gin", "big_gin"].includes(event.kind)) bubble(this.opponentEl, t(`gin.bubble.${event.kind}`));
    }
  }

  // -- end of hand --------------------------------------------------------------------------

  showReveal(result, handNumber) {
    const v = this.view;
    const name = (s) => this.name(s);
    let title;
    if (result.outcome === "draw") title = t("gin.reveal.draw");
    else if (result.outcome === "gin") title = t("gin.reveal.gin", { name: name(result.knocker) });
    else if (result.outcome === "big_gin") title = t("gin.reveal.big_gin", { name: name(result.knocker) });
    else if (result.outcome === "undercut") title = t("gin.reveal.undercut", { name: name(1 - result.knocker), knocker: name(result.knocker) });
    else title = t("gin.reveal.knock", { name: name(result.knocker), deadwood: result.knocker_deadwood });
    const points = result.winner == null ? t("gin.reveal.no_points") : t("gin.reveal.scores", { name: name(result.winner), points: result.points });
    const seatsInOrder = result.knocker == null ? [0, 1] : [result.knocker, 1 - result.knocker];
    const layoffsOn = new Map();
    for (const [card, index] of result.layoffs || []) {
      if (!layoffsOn.has(index)) layoffsOn.set(index, []);
      layoffsOn.get(index).push(card);
    }
    const showSeat = (seat) => {
      let groups = [];
      let deadwoodCards;
      let deadwood;
      if (result.outcome === "draw") {
        groups = [];
        deadwoodCards = sortCards(splitCards(result.hands[seat]), "suit");
        deadwood = null;
      } else if (seat === result.knocker) {
        groups = result.knocker_melds.map((m, i) => ({ cards: splitCards(m), laid: layoffsOn.get(i) || [] }));
        deadwoodCards = splitCards(result.knocker_deadwood_cards);
        deadwood = result.knocker_deadwood;
      } else {
        groups = result.defender_melds.map((m) => ({ cards: splitCards(m), laid: [] }));
        deadwoodCards = splitCards(result.defender_deadwood_cards);
        deadwood = result.defender_deadwood;
      }
      return h("div", { class: "reveal-seat", "data-seat": seat },
        h("h4", {}, name(seat), seat === result.knocker && result.knock_card ? h("small", { class: "muted" }, ` ${t("gin.reveal.knock_card", { card: result.knock_card })}`) : null),
        h("div", { class: "hand reveal-hand" },
          groups.map((g, i) => h("div", { class: `group meld meld-${i % 4}` },
            g.cards.map((c) => cardElement(c, { extraClass: `in-meld meld-${i % 4}` })),
            g.laid.map((c) => cardElement(c, { extraClass: "laid-off" })))),
          deadwoodCards.length ? h("div", { class: "group deadwood" }, deadwoodCards.map((c) => cardElement(c, { extraClass: "deadwood-card" }))) : null),
        deadwood == null ? null : h("p", { class: "muted" }, t("gin.reveal.deadwood", { deadwood })));
    };
    this.openReveal({
      label: "reveal.hand", number: handNumber, outcome: result.outcome, title,
      body: [
        h("p", { class: "reveal-points", "data-testid": "reveal-points" }, points),
        seatsInOrder.map(showSeat),
        h("p", { class: "scores" }, t("reveal.scores", { scores: `${name(0)} ${v.scores[0]} · ${name(1)} ${v.scores[1]}` })),
      ],
      finalResult: (final) => [
        h("h3", {}, final.winner == null ? t("gin.reveal.tied") : t("gin.reveal.wins_match", { name: name(final.winner) })),
        h("p", {}, t("reveal.totals_with_bonuses", { totals: `${name(0)} ${final.totals[0]} · ${name(1)} ${final.totals[1]}` })),
      ],
      next: t("reveal.next_hand"),
    });
  }
}
