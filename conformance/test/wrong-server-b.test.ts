// The wrong-server defects this file takes (FILE_OF in wrong-server-cases.ts).
import { wrongServerCases } from './wrong-server-cases.ts';

wrongServerCases(1);
