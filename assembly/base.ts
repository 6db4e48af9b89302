/** First byte above the static data: the TypeScript arena starts here. */
export function heapBase(): usize {
  return __heap_base;
}
