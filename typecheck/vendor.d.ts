// The remote table's transport, trystero's Nostr strategy: build.py puts it in dist/vendor/
// from its pinned npm package (fetch_transport), so web/ has no copy for tsc to read.
declare module "*/vendor/nostr/index.mjs" {
  export function joinRoom(config: object, roomId: string): any;
  export function getRelaySockets(): Record<string, WebSocket>;
  export function pauseRelayReconnection(): void;
  export function resumeRelayReconnection(): void;
  export function createEvent(topic: string, content: string): Promise<string>;
  export const selfId: string;
}
declare module "*/vendor/core/index.mjs" {
  export function sha1(text: string): Promise<string>;
  export const libName: string;
}
// lean-qr's encoder (fetch_transport too): a QR code's modules, dark or light.
declare module "*/vendor/qr/index.mjs" {
  export function generate(text: string, options?: object): { size: number; get(x: number, y: number): boolean };
}
