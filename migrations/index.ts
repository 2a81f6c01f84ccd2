import { Foundation1763700000000 } from './1763700000000-Foundation';

/** Every migration, in order. `npm run migration:create -- migrations/<Name>` makes a new file; add it here. */
export const MIGRATIONS = [Foundation1763700000000];
