import { declareFamily } from '../fixtures/index.js';

// Connection rules that send only well-formed frames: id types and unknown methods.
declareFamily('envelope');
