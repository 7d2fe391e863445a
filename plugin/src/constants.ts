/** Names shared by the plugin's parts: the view type (also the hover source id) and the secret's id. */

export const VIEW_TYPE_CHAT = "ask-vault-chat";
export const HOVER_SOURCE_DISPLAY = "Ask Vault";
/** SecretStorage ids are lowercase letters, digits and dashes. */
export const TOKEN_SECRET_ID = "ask-vault-token";
export const CHAT_ICON = "message-square-text";
