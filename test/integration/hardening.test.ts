import { useLocalApi } from '../support/local.js';
import { hardeningSuite } from './hardening-suite.js';

hardeningSuite(useLocalApi());
