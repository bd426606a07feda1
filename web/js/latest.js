// "The latest request wins": a newer request of a kind supersedes the older ones, whose answers are
// then dropped (or whose work stops early). One sequence per kind; each start() gives a ticket that
// stays current until the next start().
export function latestWins() {
  let newest = 0;
  return {
    start() {
      const id = ++newest;
      return { current: () => id === newest };
    },
  };
}

// Sequences by name, made on first use (the engine's long-running methods: one per method).
export function latestWinsByKind() {
  const kinds = new Map();
  return {
    start(kind) {
      if (!kinds.has(kind)) kinds.set(kind, latestWins());
      return kinds.get(kind).start();
    },
  };
}
