/**
 * Localized text for a market's chat groups (docs/CHAT-APPS.md "Groups"), merged into i18n.ts's
 * messages so the same check covers it: every key in every language, with the same placeholders.
 * What a group sees (its greeting, new listings, done deals) and the private replies to its members'
 * commands. Titles and owners are other people's words, filled in as one safe line by the caller.
 */

/** The group messages in English; the other languages translate each key. */
export const GROUPS_EN = {
  "title.group_bound": "This group is a market's front door",
  "group.bound": "Market {table}: {topic}. New listings and deals done in it show up here.",
  "group.how":
    "To post from here, bind your own chat account in a private chat with this bot (trestle bind) and be a member of the market; then /sell, /want, /listings, /mine and /withdraw work here, answered privately. /join tells you how.",
  "title.group_news": "News from market {table}",
  "group.news.listing": "#{seq} New {side}: {title} ({category}), {quantity}, {price}, by {owner}{mark}",
  "group.news.deal": "#{seq} Deal done: {title} ({category}), {quantity}.",
  "group.news.deal_price": "#{seq} Deal done: {title} ({category}), {quantity}, at {price}.",
  "group.listing_line": "#{seq} {side}: {title} ({category}), {price}, by {owner}{mark}",
  "group.side.offer": "offer",
  "group.side.want": "want",
  "group.quantity": "×{quantity}",
  "group.price.ask": "price on request",
  "group.price.from": "from {amount}",
  "group.price.upto": "up to {amount}",
  "group.price.range": "{min} to {max}",
  "group.unverified": " (UNVERIFIED: posted from a chat group)",
  "group.reply.bound":
    "Bound: this {platform} group is the front door of market {table} (entry {seq}). The group gets a greeting.",
  "group.reply.bind_failed": "Could not bind this group: {message}",
  "group.reply.taken":
    "This group is already the front door of market {table}: a group serves one market. Its creator unbinds it first.",
  "group.reply.code_in_private":
    "That code binds a chat group to market {table}: send it in the group itself, addressed to this bot.",
  "group.reply.owner_code_in_group":
    "That code was sent in a group, where others can read it, so it no longer works. Make a new one (trestle bind) and send it to this bot in a private chat.",
  "group.reply.in_group": "That command works in a chat group that is a market's front door, not here.",
  "group.reply.unbound_group": "This group is not the front door of any market.",
  "group.reply.not_member":
    "Your owner key {key} is not a member of market {table}: ask its creator to admit it (trestle market admit --key).",
  "group.reply.listed":
    "Listed #{seq} in market {table}: {side} {title}, {price}. UNVERIFIED: posted from {via}, relay-attested, not your signature; your agent takes it from there, and nothing commits you until you sign a deal.",
  "group.reply.list_failed": "Could not list this: {message}",
  "group.reply.usage_listing":
    "Usage: /{command} <item> [<price> <CURRENCY>] [#<category>], for example /{command} stroller 2800 TWD #{category}. Categories here: {categories}.",
  "group.reply.withdrawn": "Withdrew #{seq} from market {table} (entry {entry}).",
  "group.reply.withdraw_failed": "#{seq} was not withdrawn: {message}",
  "group.reply.usage_withdraw": "Usage: /withdraw #<number>, a number /mine shows.",
  "group.reply.listings_head": "Live listings in market {table}, newest first:",
  "group.reply.mine_head": "Your live listings in market {table}:",
  "group.reply.none": "None.",
  "group.reply.more": "…and {count} more.",
  "group.reply.join":
    "To post in market {table} from this group: 1. bind your chat account to your owner key in a private chat with this bot (on your machine: trestle bind {platform} --owner <you>, then send the bot the code); 2. have the market's creator admit your owner key. Then /sell and /want here post listings for you.",
  "group.reply.flood_member": "Too many commands from you in this group: wait {wait} and try again. Nothing was done.",
  "group.reply.flood_group": "This group sent too many commands: wait {wait} and try again. Nothing was done.",
};

/** A group message key. */
export type GroupsKey = keyof typeof GROUPS_EN;

/** Simplified Chinese. */
export const GROUPS_ZH_HANS: Record<GroupsKey, string> = {
  "title.group_bound": "本群已成为一个市场的入口",
  "group.bound": "市场 {table}：{topic}。其中的新挂牌和已完成的交易会显示在这里。",
  "group.how":
    "要在这里发布，请先在与本机器人的私聊中绑定你自己的聊天账号（trestle bind），并成为该市场的成员；之后可在这里使用 /sell、/want、/listings、/mine 和 /withdraw，回复只发给你本人。/join 会告诉你怎么做。",
  "title.group_news": "市场 {table} 的动态",
  "group.news.listing": "#{seq} 新{side}：{title}（{category}），{quantity}，{price}，发布者 {owner}{mark}",
  "group.news.deal": "#{seq} 交易完成：{title}（{category}），{quantity}。",
  "group.news.deal_price": "#{seq} 交易完成：{title}（{category}），{quantity}，成交价 {price}。",
  "group.listing_line": "#{seq} {side}：{title}（{category}），{price}，发布者 {owner}{mark}",
  "group.side.offer": "出售",
  "group.side.want": "求购",
  "group.quantity": "×{quantity}",
  "group.price.ask": "价格面议",
  "group.price.from": "{amount} 起",
  "group.price.upto": "最多 {amount}",
  "group.price.range": "{min} 至 {max}",
  "group.unverified": "（未经验证：从聊天群发布）",
  "group.reply.bound": "已绑定：此 {platform} 群现在是市场 {table} 的入口（条目 {seq}）。群里会收到一条欢迎消息。",
  "group.reply.bind_failed": "无法绑定此群：{message}",
  "group.reply.taken": "此群已经是市场 {table} 的入口：一个群只服务一个市场。需由其创建者先解除绑定。",
  "group.reply.code_in_private": "这个代码用于把聊天群绑定到市场 {table}：请在该群里发送，并指明给本机器人。",
  "group.reply.owner_code_in_group":
    "这个代码是在群里发送的，其他人都能看到，因此已失效。请重新生成一个（trestle bind），并在私聊中发给本机器人。",
  "group.reply.in_group": "这个命令只能在作为市场入口的聊天群里使用，不能在这里用。",
  "group.reply.unbound_group": "此群不是任何市场的入口。",
  "group.reply.not_member":
    "你的所有者密钥 {key} 不是市场 {table} 的成员：请让其创建者接纳它（trestle market admit --key）。",
  "group.reply.listed":
    "已在市场 {table} 挂牌 #{seq}：{side} {title}，{price}。未经验证：从 {via} 发布，由中继证明，并非你的签名；之后由你的代理接手，在你签署交易之前，没有任何事会约束你。",
  "group.reply.list_failed": "无法挂牌：{message}",
  "group.reply.usage_listing":
    "用法：/{command} <物品> [<价格> <货币>] [#<类别>]，例如 /{command} stroller 2800 TWD #{category}。这里的类别：{categories}。",
  "group.reply.withdrawn": "已从市场 {table} 撤下 #{seq}（条目 {entry}）。",
  "group.reply.withdraw_failed": "无法撤下 #{seq}：{message}",
  "group.reply.usage_withdraw": "用法：/withdraw #<编号>，即 /mine 显示的编号。",
  "group.reply.listings_head": "市场 {table} 中有效的挂牌，最新的在前：",
  "group.reply.mine_head": "你在市场 {table} 中有效的挂牌：",
  "group.reply.none": "没有。",
  "group.reply.more": "……另有 {count} 条。",
  "group.reply.join":
    "要从此群在市场 {table} 发布：1. 在与本机器人的私聊中把你的聊天账号绑定到你的所有者密钥（在你的电脑上运行 trestle bind {platform} --owner <你>，然后把代码发给机器人）；2. 请市场的创建者接纳你的所有者密钥。之后在这里用 /sell 和 /want 即可为你挂牌。",
  "group.reply.flood_member": "你在此群发送的命令太多：请等待 {wait} 后再试。未做任何操作。",
  "group.reply.flood_group": "此群发送的命令太多：请等待 {wait} 后再试。未做任何操作。",
};

/** Traditional Chinese. */
export const GROUPS_ZH_HANT: Record<GroupsKey, string> = {
  "title.group_bound": "本群已成為一個市場的入口",
  "group.bound": "市場 {table}：{topic}。其中的新刊登和已完成的交易會顯示在這裡。",
  "group.how":
    "要在這裡發布，請先在與本機器人的私訊中綁定你自己的聊天帳號（trestle bind），並成為該市場的成員；之後可在這裡使用 /sell、/want、/listings、/mine 和 /withdraw，回覆只傳給你本人。/join 會告訴你怎麼做。",
  "title.group_news": "市場 {table} 的動態",
  "group.news.listing": "#{seq} 新{side}：{title}（{category}），{quantity}，{price}，刊登者 {owner}{mark}",
  "group.news.deal": "#{seq} 交易完成：{title}（{category}），{quantity}。",
  "group.news.deal_price": "#{seq} 交易完成：{title}（{category}），{quantity}，成交價 {price}。",
  "group.listing_line": "#{seq} {side}：{title}（{category}），{price}，刊登者 {owner}{mark}",
  "group.side.offer": "出售",
  "group.side.want": "徵求",
  "group.quantity": "×{quantity}",
  "group.price.ask": "價格面議",
  "group.price.from": "{amount} 起",
  "group.price.upto": "最多 {amount}",
  "group.price.range": "{min} 至 {max}",
  "group.unverified": "（未經驗證：從聊天群組發布）",
  "group.reply.bound": "已綁定：此 {platform} 群組現在是市場 {table} 的入口（條目 {seq}）。群組會收到一則歡迎訊息。",
  "group.reply.bind_failed": "無法綁定此群組：{message}",
  "group.reply.taken": "此群組已經是市場 {table} 的入口：一個群組只服務一個市場。需由其建立者先解除綁定。",
  "group.reply.code_in_private": "這個代碼用於把聊天群組綁定到市場 {table}：請在該群組裡傳送，並指名給本機器人。",
  "group.reply.owner_code_in_group":
    "這個代碼是在群組裡傳送的，其他人都看得到，因此已失效。請重新產生一個（trestle bind），並在私訊中傳給本機器人。",
  "group.reply.in_group": "這個指令只能在作為市場入口的聊天群組裡使用，不能在這裡用。",
  "group.reply.unbound_group": "此群組不是任何市場的入口。",
  "group.reply.not_member":
    "你的擁有者金鑰 {key} 不是市場 {table} 的成員：請其建立者接納它（trestle market admit --key）。",
  "group.reply.listed":
    "已在市場 {table} 刊登 #{seq}：{side} {title}，{price}。未經驗證：從 {via} 發布，由中繼證明，並非你的簽章；之後由你的代理接手，在你簽署交易之前，沒有任何事會約束你。",
  "group.reply.list_failed": "無法刊登：{message}",
  "group.reply.usage_listing":
    "用法：/{command} <物品> [<價格> <貨幣>] [#<類別>]，例如 /{command} stroller 2800 TWD #{category}。這裡的類別：{categories}。",
  "group.reply.withdrawn": "已從市場 {table} 撤下 #{seq}（條目 {entry}）。",
  "group.reply.withdraw_failed": "無法撤下 #{seq}：{message}",
  "group.reply.usage_withdraw": "用法：/withdraw #<編號>，即 /mine 顯示的編號。",
  "group.reply.listings_head": "市場 {table} 中有效的刊登，最新的在前：",
  "group.reply.mine_head": "你在市場 {table} 中有效的刊登：",
  "group.reply.none": "沒有。",
  "group.reply.more": "……另有 {count} 則。",
  "group.reply.join":
    "要從此群組在市場 {table} 發布：1. 在與本機器人的私訊中把你的聊天帳號綁定到你的擁有者金鑰（在你的電腦上執行 trestle bind {platform} --owner <你>，然後把代碼傳給機器人）；2. 請市場的建立者接納你的擁有者金鑰。之後在這裡用 /sell 和 /want 即可為你刊登。",
  "group.reply.flood_member": "你在此群組傳送的指令太多：請等待 {wait} 後再試。未做任何操作。",
  "group.reply.flood_group": "此群組傳送的指令太多：請等待 {wait} 後再試。未做任何操作。",
};

/** Japanese. */
export const GROUPS_JA: Record<GroupsKey, string> = {
  "title.group_bound": "このグループはマーケットの入口になりました",
  "group.bound": "マーケット {table}：{topic}。新しい出品と成立した取引がここに表示されます。",
  "group.how":
    "ここから投稿するには、このボットとの個別チャットで自分のチャットアカウントを紐づけ（trestle bind）、マーケットのメンバーになってください。その後ここで /sell、/want、/listings、/mine、/withdraw が使え、返信はあなただけに届きます。やり方は /join で案内します。",
  "title.group_news": "マーケット {table} のお知らせ",
  "group.news.listing": "#{seq} 新しい{side}：{title}（{category}）、{quantity}、{price}、出品者 {owner}{mark}",
  "group.news.deal": "#{seq} 取引成立：{title}（{category}）、{quantity}。",
  "group.news.deal_price": "#{seq} 取引成立：{title}（{category}）、{quantity}、成約価格 {price}。",
  "group.listing_line": "#{seq} {side}：{title}（{category}）、{price}、出品者 {owner}{mark}",
  "group.side.offer": "出品",
  "group.side.want": "募集",
  "group.quantity": "×{quantity}",
  "group.price.ask": "価格は応相談",
  "group.price.from": "{amount} から",
  "group.price.upto": "{amount} まで",
  "group.price.range": "{min}〜{max}",
  "group.unverified": "（未検証：チャットグループから投稿）",
  "group.reply.bound":
    "紐づけました：この {platform} グループはマーケット {table} の入口です（エントリ {seq}）。グループに挨拶が届きます。",
  "group.reply.bind_failed": "このグループを紐づけられませんでした：{message}",
  "group.reply.taken":
    "このグループはすでにマーケット {table} の入口です：1つのグループが受け持つマーケットは1つだけです。先に作成者が紐づけを解除してください。",
  "group.reply.code_in_private":
    "このコードはチャットグループをマーケット {table} に紐づけるものです：そのグループ内で、このボット宛てに送ってください。",
  "group.reply.owner_code_in_group":
    "このコードは他の人も読めるグループで送られたため、もう使えません。新しいコードを作り（trestle bind）、このボットとの個別チャットで送ってください。",
  "group.reply.in_group":
    "このコマンドはマーケットの入口になっているチャットグループで使うもので、ここでは使えません。",
  "group.reply.unbound_group": "このグループはどのマーケットの入口でもありません。",
  "group.reply.not_member":
    "あなたのオーナー鍵 {key} はマーケット {table} のメンバーではありません：作成者に受け入れてもらってください（trestle market admit --key）。",
  "group.reply.listed":
    "マーケット {table} に #{seq} を出しました：{side} {title}、{price}。未検証：{via} から投稿、リレーの証明であなたの署名ではありません。この先はあなたのエージェントが引き継ぎ、取引に署名するまであなたを拘束するものは何もありません。",
  "group.reply.list_failed": "出品できませんでした：{message}",
  "group.reply.usage_listing":
    "使い方：/{command} <品物> [<価格> <通貨>] [#<カテゴリ>]、例：/{command} stroller 2800 TWD #{category}。ここのカテゴリ：{categories}。",
  "group.reply.withdrawn": "マーケット {table} から #{seq} を取り下げました（エントリ {entry}）。",
  "group.reply.withdraw_failed": "#{seq} を取り下げられませんでした：{message}",
  "group.reply.usage_withdraw": "使い方：/withdraw #<番号>（/mine に出る番号）。",
  "group.reply.listings_head": "マーケット {table} の有効な出品（新しい順）：",
  "group.reply.mine_head": "マーケット {table} でのあなたの有効な出品：",
  "group.reply.none": "ありません。",
  "group.reply.more": "…ほか {count} 件。",
  "group.reply.join":
    "このグループからマーケット {table} に投稿するには：1. このボットとの個別チャットで、チャットアカウントをオーナー鍵に紐づけます（自分のマシンで trestle bind {platform} --owner <あなた> を実行し、コードをボットに送る）；2. マーケットの作成者にオーナー鍵を受け入れてもらいます。その後ここで /sell と /want を使うと、あなたの出品になります。",
  "group.reply.flood_member":
    "このグループでのあなたのコマンドが多すぎます：{wait} 待ってから試してください。何もしていません。",
  "group.reply.flood_group":
    "このグループからのコマンドが多すぎます：{wait} 待ってから試してください。何もしていません。",
};
