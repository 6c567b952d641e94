// Which engine client a page uses: the worker in this tab (solo and pass-and-play), the
// worker wrapped by a host's table (?remote=…), or a guest's table at the host's (#join=…).
// Only the address is read here; the table's modules load on demand, so a solo page loads no
// transport and contacts nothing but its own origin.

import { readHosting, readInvite } from "./invite.js";

// A client whose methods wait for the real one, loaded by a dynamic import.
class Later {
  constructor(loading) {
    this._client = null;
    this._loading = loading.then((client) => {
      this._client = client;
      return client;
    });
    this.ready = this._loading.then((client) => client.ready);
  }

  async request(type, payload = {}) {
    return (await this._loading).request(type, payload);
  }

  onProgress(listener) {
    this._loading.then((client) => client.onProgress(listener));
    return () => {};
  }

  onRestart(listener) {
    this._loading.then((client) => client.onRestart(listener));
    return () => {};
  }

  onChange(listener) {
    this._loading.then((client) => client.onChange(listener));
    return () => {};
  }

  get game() {
    return this._client?.game ?? null;
  }

  /** The table's own client (the tests read its counts and recordings). */
  get table() {
    return this._client;
  }
}

/** The client of a page at a remote table, or null for a page of this device alone.
 * startEngine makes this tab's worker client (a host runs the engine). */
export function tableClient(startEngine, href = location.href) {
  const invite = readInvite(href);
  if (invite) return new Later(import("./guest.js").then(({ GuestClient }) => new GuestClient(invite)));
  const hosting = readHosting(href);
  if (hosting && !hosting.error) {
    const engine = startEngine();
    return new Later(import("./host.js").then(({ HostClient }) => HostClient.open(engine, hosting)));
  }
  return null;
}
