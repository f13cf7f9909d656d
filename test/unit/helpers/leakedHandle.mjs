// Loaded with --import into a contract-gate process: a handle nothing ever closes, as a leaked socket or timer would be.
setInterval(() => undefined, 1_000);
