import type { TransportClose, TransportFrame } from './transport.js';

type Listener<T> = ((value: T) => void) | undefined;

/**
 * The listener half of a transport. What arrives before a listener is attached is kept and handed over on
 * attach: a target may send its first frame in the same packet as the handshake, before anyone listens.
 */
export class TransportEvents {
  private frameListener: Listener<TransportFrame>;
  private noteListener: Listener<string>;
  private closeListener: Listener<TransportClose>;
  private readonly earlyFrames: TransportFrame[] = [];
  private readonly earlyNotes: string[] = [];
  private closeInfo: TransportClose | undefined;
  private closeDelivered = false;

  get closedWith(): TransportClose | undefined {
    return this.closeInfo;
  }

  onFrame(listener: (frame: TransportFrame) => void): void {
    this.frameListener = listener;
    for (const frame of this.earlyFrames.splice(0)) listener(frame);
    this.deliverClose();
  }

  onNote(listener: (text: string) => void): void {
    this.noteListener = listener;
    for (const note of this.earlyNotes.splice(0)) listener(note);
  }

  onClose(listener: (info: TransportClose) => void): void {
    this.closeListener = listener;
    this.deliverClose();
  }

  protected emitFrame(frame: TransportFrame): void {
    if (this.closeInfo) return;
    if (this.frameListener) this.frameListener(frame);
    else this.earlyFrames.push(frame);
  }

  protected emitNote(text: string): void {
    if (this.noteListener) this.noteListener(text);
    else this.earlyNotes.push(text);
  }

  protected emitClose(info: TransportClose): void {
    if (this.closeInfo) return;
    this.closeInfo = info;
    this.deliverClose();
  }

  private deliverClose(): void {
    if (!this.closeInfo || !this.closeListener || this.closeDelivered) return;
    // Frames and notes that came before the close reach their listeners first (they may not be attached yet).
    if (this.earlyFrames.length > 0 && !this.frameListener) return;
    this.closeDelivered = true;
    this.closeListener(this.closeInfo);
  }
}
