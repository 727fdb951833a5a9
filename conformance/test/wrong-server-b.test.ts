// Second half of the wrong-server defects (see wrong-server-cases.ts).
import { wrongServerCases } from './wrong-server-cases.ts';

wrongServerCases(1);
