// Prices a candidate by its measured duration on the project's repetition curve: the contract's
// `price`, which the CLI's --stress-tests shares.
export { price, type Price } from '../contract.js';
