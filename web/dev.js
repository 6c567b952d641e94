// Settings for tests only, kept in the browser's storage (storage.js: "dev") and never shown on the
// page: {review_budget, master_iterations} make the review and the master in your seat quick
// enough for a browser test. Each is range-checked like any value read from storage; one out
// of range, or none, leaves the engine's own budget.

import { readJson } from "./storage.js";

const LIMITS = { review_budget: 32_000, master_iterations: 20_000 }; // the engine's maxima

/** A test's budget for ``name`` (a whole number within the engine's limit), or null. */
export function testBudget(name) {
  const { value: saved } = readJson("dev");
  const value = saved?.[name];
  return Number.isInteger(value) && value >= 1 && value <= LIMITS[name] ? value : null;
}
