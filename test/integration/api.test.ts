import { useLocalApi } from '../support/local.js';
import { apiSuite } from './api-suite.js';

apiSuite(useLocalApi());
