import TellerCore
