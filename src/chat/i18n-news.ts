/**
 * Localized room news text (docs/CHAT-APPS.md "Room news"), merged into i18n.ts's messages so the
 * same check covers it: every key in every language, with the same placeholders. `{terms}` is the
 * terms in the words of src/text/terms.ts, or `news.sealed_terms` about an e2e room.
 */

/** The room news messages in English; the other languages translate each key. */
export const NEWS_EN = {
  "title.room_news.offer": "New offer",
  "title.room_news.counter": "Counter-offer",
  "title.room_news.accept": "Offer accepted",
  "title.room_news.reject": "Offer rejected",
  "title.room_news.deal_pending": "Deal pending",
  "title.room_news.deal_done": "Deal done",
  "title.room_news.no_deal": "No deal",
  "title.room_news.auction_deal": "Auction settled with a deal",
  "title.room_news.auction_no_deal": "Auction settled without a deal",
  "title.room_news.ejected": "Seat ejected",
  "title.room_news.held": "Your approval is needed",
  "news.offer": "{seat} offers {terms}.",
  "news.counter": "{seat} counters with {terms}.",
  "news.accept": "{seat} accepted {terms}. The deal is done only once both owners sign it.",
  "news.reject": "{seat} rejected {terms}.",
  "news.deal_pending":
    "The deal on {terms} is pending: not signed yet by {waiting}. It is not done until both owners sign.",
  "news.deal_done": "The deal on {terms} is done: both owners signed it.",
  "news.no_deal": "{seat} closed the room without a deal.",
  "news.auction_deal": "The auction {seat} opened settled with a deal at {terms}.",
  "news.auction_no_deal": "The auction {seat} opened settled without a deal: {reason}.",
  "news.ejected": "{by} ejected seat {seat}.",
  "news.held":
    "Your agent {seat} wants to {kind} {terms}: approve in trestle view or with trestle gate approve {hash} --table {table} --seat {seat}",
  "news.sealed_terms": "(terms not shown: end-to-end encrypted)",
  "news.entry": "Entry {seq}.",
  "nodeal.bids_do_not_cross": "the bids do not cross",
  "nodeal.missing_commit": "a side did not commit a bid in time",
  "nodeal.missing_reveal": "a side did not reveal its bid in time",
};

/** A room news message key. */
export type NewsKey = keyof typeof NEWS_EN;

/** Simplified Chinese. */
export const NEWS_ZH_HANS: Record<NewsKey, string> = {
  "title.room_news.offer": "新报价",
  "title.room_news.counter": "还价",
  "title.room_news.accept": "报价已接受",
  "title.room_news.reject": "报价被拒绝",
  "title.room_news.deal_pending": "成交待签",
  "title.room_news.deal_done": "成交完成",
  "title.room_news.no_deal": "未成交",
  "title.room_news.auction_deal": "拍卖结算：成交",
  "title.room_news.auction_no_deal": "拍卖结算：未成交",
  "title.room_news.ejected": "席位被移出",
  "title.room_news.held": "需要你的批准",
  "news.offer": "{seat} 报价 {terms}。",
  "news.counter": "{seat} 还价 {terms}。",
  "news.accept": "{seat} 接受了 {terms}。双方所有者都签署后，成交才算完成。",
  "news.reject": "{seat} 拒绝了 {terms}。",
  "news.deal_pending": "{terms} 的成交待签：{waiting} 尚未签署。双方所有者都签署前，成交未完成。",
  "news.deal_done": "{terms} 的成交已完成：双方所有者都已签署。",
  "news.no_deal": "{seat} 以未成交关闭了房间。",
  "news.auction_deal": "{seat} 发起的拍卖以 {terms} 成交结算。",
  "news.auction_no_deal": "{seat} 发起的拍卖未成交结算：{reason}。",
  "news.ejected": "{by} 将席位 {seat} 移出。",
  "news.held":
    "你的代理 {seat} 想要 {kind} {terms}：请在 trestle view 中批准，或运行 trestle gate approve {hash} --table {table} --seat {seat}",
  "news.sealed_terms": "（条款不显示：端到端加密）",
  "news.entry": "条目 {seq}。",
  "nodeal.bids_do_not_cross": "双方出价没有交叉",
  "nodeal.missing_commit": "有一方未按时提交出价",
  "nodeal.missing_reveal": "有一方未按时公开出价",
};

/** Traditional Chinese. */
export const NEWS_ZH_HANT: Record<NewsKey, string> = {
  "title.room_news.offer": "新報價",
  "title.room_news.counter": "還價",
  "title.room_news.accept": "報價已接受",
  "title.room_news.reject": "報價被拒絕",
  "title.room_news.deal_pending": "成交待簽",
  "title.room_news.deal_done": "成交完成",
  "title.room_news.no_deal": "未成交",
  "title.room_news.auction_deal": "拍賣結算：成交",
  "title.room_news.auction_no_deal": "拍賣結算：未成交",
  "title.room_news.ejected": "席位被移出",
  "title.room_news.held": "需要你的核准",
  "news.offer": "{seat} 報價 {terms}。",
  "news.counter": "{seat} 還價 {terms}。",
  "news.accept": "{seat} 接受了 {terms}。雙方擁有者都簽署後，成交才算完成。",
  "news.reject": "{seat} 拒絕了 {terms}。",
  "news.deal_pending": "{terms} 的成交待簽：{waiting} 尚未簽署。雙方擁有者都簽署前，成交未完成。",
  "news.deal_done": "{terms} 的成交已完成：雙方擁有者都已簽署。",
  "news.no_deal": "{seat} 以未成交關閉了房間。",
  "news.auction_deal": "{seat} 發起的拍賣以 {terms} 成交結算。",
  "news.auction_no_deal": "{seat} 發起的拍賣未成交結算：{reason}。",
  "news.ejected": "{by} 將席位 {seat} 移出。",
  "news.held":
    "你的代理 {seat} 想要 {kind} {terms}：請在 trestle view 中核准，或執行 trestle gate approve {hash} --table {table} --seat {seat}",
  "news.sealed_terms": "（條款不顯示：端對端加密）",
  "news.entry": "第 {seq} 筆。",
  "nodeal.bids_do_not_cross": "雙方出價沒有交叉",
  "nodeal.missing_commit": "有一方未按時提交出價",
  "nodeal.missing_reveal": "有一方未按時公開出價",
};

/** Japanese. */
export const NEWS_JA: Record<NewsKey, string> = {
  "title.room_news.offer": "新しいオファー",
  "title.room_news.counter": "カウンターオファー",
  "title.room_news.accept": "オファーが受諾されました",
  "title.room_news.reject": "オファーが拒否されました",
  "title.room_news.deal_pending": "取引は署名待ち",
  "title.room_news.deal_done": "取引成立",
  "title.room_news.no_deal": "不成立",
  "title.room_news.auction_deal": "オークション決済：成立",
  "title.room_news.auction_no_deal": "オークション決済：不成立",
  "title.room_news.ejected": "席が退出させられました",
  "title.room_news.held": "あなたの承認が必要です",
  "news.offer": "{seat} が {terms} をオファーしました。",
  "news.counter": "{seat} が {terms} でカウンターしました。",
  "news.accept": "{seat} が {terms} を受諾しました。両方のオーナーが署名して初めて取引は成立します。",
  "news.reject": "{seat} が {terms} を拒否しました。",
  "news.deal_pending":
    "{terms} の取引は署名待ちです：{waiting} がまだ署名していません。両方のオーナーが署名するまで成立しません。",
  "news.deal_done": "{terms} の取引が成立しました：両方のオーナーが署名しました。",
  "news.no_deal": "{seat} が取引なしでルームを閉じました。",
  "news.auction_deal": "{seat} が開いたオークションは {terms} で成立しました。",
  "news.auction_no_deal": "{seat} が開いたオークションは不成立で決済されました：{reason}。",
  "news.ejected": "{by} が席 {seat} を退出させました。",
  "news.held":
    "あなたのエージェント {seat} が {kind} {terms} をしようとしています：trestle view で、または trestle gate approve {hash} --table {table} --seat {seat} で承認してください",
  "news.sealed_terms": "（条件は表示しません：エンドツーエンド暗号化）",
  "news.entry": "エントリ {seq}。",
  "nodeal.bids_do_not_cross": "入札が交差しない",
  "nodeal.missing_commit": "一方が期限内に入札をコミットしなかった",
  "nodeal.missing_reveal": "一方が期限内に入札を公開しなかった",
};
