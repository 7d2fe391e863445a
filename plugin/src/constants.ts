/** Names shared by the plugin's parts: the view types (also the hover source ids), the secrets' ids and the local storage key. */

export const VIEW_TYPE_CHAT = "ask-vault-chat";
export const HOVER_SOURCE_DISPLAY = "Ask Vault";
export const VIEW_TYPE_RELATED = "ask-vault-related";
/** Listed under Settings → Page preview, beside the chat's "Ask Vault". */
export const RELATED_HOVER_DISPLAY = "Ask Vault related notes";
export const RELATED_ICON = "network";
/** SecretStorage ids are lowercase letters, digits and dashes. */
export const TOKEN_SECRET_ID = "ask-vault-token";
export const CHAT_ICON = "message-square-text";
/** The device token a paired remote sidecar issued, in SecretStorage beside (never instead of) the loopback token. */
export const REMOTE_TOKEN_SECRET_ID = "ask-vault-remote-token";
/** The `app.saveLocalStorage` key (per vault, on this device only) of the remote sidecar this device is paired with. */
export const REMOTE_STORAGE_KEY = "ask-vault-remote";
