// Cards that move: an agent card with its interfaces at another URL, and a card served at one
// interface URL when first read (at the agent's registration) and at another on every later read.
import type { AgentCard } from "@a2a-js/sdk";

/** `card` with each of its interfaces moved to `url`. */
export function movedTo(card: AgentCard, url: string): AgentCard {
  return {
    ...card,
    supportedInterfaces: card.supportedInterfaces.map((face) => ({ ...face, url })),
  };
}

/**
 * A test agent's `card` option: the card with its interfaces at `first` when first read, and at
 * `later()` on every read after.
 */
export function movingCard(first: string, later: () => string): (card: AgentCard) => AgentCard {
  let reads = 0;
  return (card) => {
    reads += 1;
    return movedTo(card, reads === 1 ? first : later());
  };
}
