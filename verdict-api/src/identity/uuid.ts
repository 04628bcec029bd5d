// The shape of a UUID, written once: the ids this service makes (test cases, projects, tokens,
// webhooks) and the ids a request may name. Imports nothing, so any module may use it.

/** A UUID as this service writes it and ClickHouse prints it: lowercase hex, 8-4-4-4-12. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `value` is a UUID of that shape (lowercase). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
