// The room's WebSocket: hello on every (re)connect, request ids, reconnection with
// exponential backoff and jitter.

/**
 * Close codes after which reconnecting cannot help: the seat's link was replaced (4001),
 * no such room (4404), the site's operator closed the room (4410).
 */
const FINAL = new Set([4001, 4404, 4410]);

export class RoomSocket {
  /**
   * handlers: {onFrame(frame), onStatus("connecting"|"open"|"closed"|"retrying", info), getHello()}
   */
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    /** @type {number | undefined} */
    this.timer = undefined;
    this.stopped = false;
    this.queue = [];
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.retryNow();
    });
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  /** @returns {WebSocket | null} the socket, while it is open */
  openWs() {
    return this.ws && this.ws.readyState === WebSocket.OPEN ? this.ws : null;
  }

  isOpen() {
    return this.openWs() !== null;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.handlers.onStatus?.(this.attempt ? "retrying" : "connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      ws.send(JSON.stringify({ type: "hello", ...this.handlers.getHello() }));
    });
    ws.addEventListener("message", (ev) => {
      if (ws !== this.ws) return;
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (frame.type === "state" || frame.type === "welcome") {
        if (this.attempt || !this.opened) {
          this.opened = true;
          this.attempt = 0;
          this.handlers.onStatus?.("open", {});
          this.flush();
        }
      }
      if ((frame.type === "ack" || frame.type === "error") && frame.ref != null) {
        const p = this.pending.get(frame.ref);
        this.pending.delete(frame.ref);
        if (p) frame.request = p;
      }
      this.handlers.onFrame(frame);
    });
    ws.addEventListener("close", (ev) => {
      if (ws !== this.ws) return;
      this.opened = false;
      if (FINAL.has(ev.code)) this.stopped = true;
      this.handlers.onStatus?.("closed", { code: ev.code, reason: ev.reason });
      this.schedule();
    });
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  schedule() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const base = Math.min(10000, 500 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.handlers.onStatus?.("retrying", { attempt: this.attempt, delay });
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.stopped || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  /** Reconnect now with a fresh hello (after the token changed). */
  reconnect() {
    const old = this.ws;
    /** @type {WebSocket | null} */
    this.ws = null;
    if (old) old.close();
    this.attempt = 0;
    this.opened = false;
    this.connect();
  }

  flush() {
    const ws = this.openWs();
    if (!ws) return;
    const q = this.queue;
    this.queue = [];
    for (const f of q) ws.send(JSON.stringify(f));
  }

  /** Send a frame; returns its id. meta (e.g. {anchor}) comes back with the ack/error. */
  send(frame, meta = {}) {
    const id = this.nextId++;
    const out = { ...frame, id };
    this.pending.set(id, { ...meta, frame: out });
    const ws = this.opened ? this.openWs() : null;
    if (ws) ws.send(JSON.stringify(out));
    else this.queue.push(out);
    return id;
  }

  /**
   * Send a frame at once, without an id and never queued (the drawing's strokes: a
   * reconnect replays the server's copy instead). Returns whether it went out.
   */
  sendRaw(frame) {
    const ws = this.opened ? this.openWs() : null;
    if (!ws) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** Connect again after stop(). */
  resume() {
    this.stopped = false;
    this.reconnect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
